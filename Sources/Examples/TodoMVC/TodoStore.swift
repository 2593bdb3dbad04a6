import Foundation
import GRDB

/// The visitors' lists in SQLite (through GRDB): `todos.sqlite` in a data directory, or a
/// database in memory for tests. Thread-safe; writes are serialised, and a change that
/// returned is on disk (WAL journal), so a list outlives a restart.
public final class TodoStore: Sendable {
    /// Where the data lives: the file's path, or ":memory:".
    public let location: String
    private let writer: any DatabaseWriter

    /// The most items one visitor's list holds; an add past it is refused.
    public static let maximumItems = 1_000
    /// The longest title kept, in characters; a longer one is refused.
    public static let maximumTitleLength = 1_000

    /// Opens (or creates) `todos.sqlite` in `directory`, creating the directory if needed.
    public init(directory: String) throws(TodoStoreError) {
        let path = URL(fileURLWithPath: directory).appendingPathComponent("todos.sqlite").path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            writer = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(writer)
        } catch {
            throw TodoStoreError(.unusable, "the list store \(path) cannot be used: \(error)")
        }
        location = path
    }

    /// A store in memory, gone when released: for tests.
    public init() {
        location = ":memory:"
        // Creating a table in a new in-memory database fails only if SQLite itself is broken.
        writer = try! DatabaseQueue()
        try! Self.migrator.migrate(writer)
    }

    /// The visitor's list, oldest item first.
    public func list(for visitor: String) throws(TodoStoreError) -> [Todo] {
        do {
            return try writer.read { try Self.fetch(visitor, $0) }
        } catch {
            throw TodoStoreError(.unusable, "the list of a visitor could not be read: \(error)")
        }
    }

    /// Applies `change` to the visitor's list in one transaction and returns the list after it.
    /// A change naming an item the visitor does not have changes nothing.
    public func apply(_ change: TodoChange, for visitor: String) throws(TodoStoreError) -> [Todo] {
        do {
            return try writer.write { db in
                try Self.write(change, for: visitor, db)
                return try Self.fetch(visitor, db)
            }
        } catch let error as TodoStoreError {
            throw error
        } catch {
            throw TodoStoreError(.unusable, "a change to a visitor's list could not be written: \(error)")
        }
    }

    private static func write(_ change: TodoChange, for visitor: String, _ db: Database) throws {
        switch change {
        case .add(let title):
            let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !title.isEmpty else { return }
            guard title.count <= maximumTitleLength else {
                throw TodoStoreError(.tooLong, "a title of \(title.count) characters is over \(maximumTitleLength)")
            }
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM todo WHERE visitor = ?", arguments: [visitor])
            guard (count ?? 0) < maximumItems else {
                throw TodoStoreError(.full, "a list holds at most \(maximumItems) items")
            }
            try db.execute(
                sql: "INSERT INTO todo (visitor, title, completed) VALUES (?, ?, 0)", arguments: [visitor, title])
        case .setCompleted(let id, let completed):
            try db.execute(
                sql: "UPDATE todo SET completed = ? WHERE id = ? AND visitor = ?", arguments: [completed, id, visitor])
        case .setAllCompleted(let completed):
            try db.execute(sql: "UPDATE todo SET completed = ? WHERE visitor = ?", arguments: [completed, visitor])
        case .rename(let id, let title):
            let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
            if title.isEmpty { return try write(.remove(id: id), for: visitor, db) }
            guard title.count <= maximumTitleLength else {
                throw TodoStoreError(.tooLong, "a title of \(title.count) characters is over \(maximumTitleLength)")
            }
            try db.execute(
                sql: "UPDATE todo SET title = ? WHERE id = ? AND visitor = ?", arguments: [title, id, visitor])
        case .remove(let id):
            try db.execute(sql: "DELETE FROM todo WHERE id = ? AND visitor = ?", arguments: [id, visitor])
        case .clearCompleted:
            try db.execute(sql: "DELETE FROM todo WHERE visitor = ? AND completed", arguments: [visitor])
        }
    }

    private static func fetch(_ visitor: String, _ db: Database) throws -> [Todo] {
        try Row.fetchAll(
            db, sql: "SELECT id, title, completed FROM todo WHERE visitor = ? ORDER BY id", arguments: [visitor]
        )
        .map { Todo(id: $0["id"], title: $0["title"], completed: $0["completed"]) }
    }

    private static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("todo") { db in
            try db.execute(
                sql: """
                    CREATE TABLE todo (
                      id INTEGER PRIMARY KEY AUTOINCREMENT,
                      visitor TEXT NOT NULL,
                      title TEXT NOT NULL,
                      completed BOOLEAN NOT NULL DEFAULT 0
                    );
                    CREATE INDEX todo_by_visitor ON todo (visitor, id);
                    """)
        }
        return migrator
    }()
}

/// Why the list store refused or failed a change.
public struct TodoStoreError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, to match on.
    public struct Kind: Equatable, Sendable {
        private enum Value { case full, tooLong, unusable }
        private let value: Value
        /// The visitor's list holds ``TodoStore/maximumItems`` already.
        public static let full = Kind(value: .full)
        /// The title is longer than ``TodoStore/maximumTitleLength``.
        public static let tooLong = Kind(value: .tooLong)
        /// The database could not be opened, read or written.
        public static let unusable = Kind(value: .unusable)
    }

    public let kind: Kind
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
