import Foundation
import GRDB
import Logging

/// The kiosk's SQLite database (through GRDB): its accounts, and the state of its lots
/// and bids. One file, `kiosk.sqlite`, in a data directory, or a database in memory
/// for tests. Thread-safe; writes are serialised, and a write that returned is on disk
/// (a killed process loses none: WAL journal).
public final class KioskDatabase: Sendable {
    /// Where the data lives: the file's path, or ":memory:".
    public let location: String
    let writer: any DatabaseWriter

    /// The name of the database file in a data directory.
    public static let fileName = "kiosk.sqlite"

    /// Opens the database in `directory` (created when missing, with its parents) and
    /// brings its tables up to date. Throws a ``StoreError`` saying what is wrong with
    /// the directory or the file: not creatable, not writable, not a database, damaged.
    public init(directory: String) throws(StoreError) {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(Self.fileName).path
        try Self.makeDirectory(directory)
        guard access(directory, W_OK | X_OK) == 0 else {
            throw StoreError("the data directory \(directory) is not writable: \(String(cString: strerror(errno)))")
        }
        if FileManager.default.fileExists(atPath: path), access(path, R_OK | W_OK) != 0 {
            throw StoreError("the database \(path) cannot be read and written: \(String(cString: strerror(errno)))")
        }
        // Nodes sharing a data directory (scripts/cluster) may open it at once: one at a
        // time brings the tables up to date. The lock goes with the descriptor.
        let lock = open(directory + "/kiosk.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else {
            throw StoreError("cannot open \(directory)/kiosk.lock: \(String(cString: strerror(errno)))")
        }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else {
            throw StoreError("cannot lock \(directory)/kiosk.lock: \(String(cString: strerror(errno)))")
        }
        location = path
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            writer = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(writer)
            // A damaged file can open and migrate; the check reads every page.
            let check = try writer.read { try String.fetchOne($0, sql: "PRAGMA quick_check") }
            guard check == "ok" else { throw StoreError("the database \(path) is damaged: \(check ?? "no answer")") }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("the database \(path) cannot be used: \(Self.reason(error))")
        }
    }

    /// A database in memory, gone when released: for tests and the examples app.
    public init() {
        location = ":memory:"
        writer = try! DatabaseQueue()
        // Creating tables in a new in-memory database fails only if SQLite itself is broken.
        try! Self.migrator.migrate(writer)
    }

    /// Writes, for a change whose loss costs nothing that cannot be made again (a lot's
    /// closing, a remembered sign-in): a failure is logged as `what` could not be
    /// recorded, not thrown.
    func writeOrLog(_ what: String, to logger: Logger, _ update: (Database) throws -> Void) {
        do {
            try writer.write(update)
        } catch {
            logger.error("\(what) could not be recorded in \(location): \(error)")
        }
    }

    /// Deletes all but the `count` rows of the visitor-keyed `table` newest by the time
    /// column `newest` (the last written first among equal times): what keeps a table of
    /// one row per visitor bounded. The names are the schema's, never input (`table` one
    /// of ``countedTables``).
    ///
    /// A few index lookups, however many rows the table holds: its row count is kept by
    /// triggers (`rowCount`), and only the rows past `count` are visited, oldest first.
    /// (Skipping the newest `count` rows to find the rest visited every row: 1.7 ms per
    /// language chosen (p50, 38 ms p99), on the session's loop, with 40,000 visitors
    /// remembered; 0.26 ms and 3.2 ms this way.)
    static func keepNewest(_ count: Int, of table: String, by newest: String, in db: Database) throws {
        let rows = try Int.fetchOne(db, sql: "SELECT rows FROM rowCount WHERE tableName = ?", arguments: [table]) ?? 0
        guard rows > count else { return }
        try db.execute(
            sql: """
                DELETE FROM \(table) WHERE visitor IN
                (SELECT visitor FROM \(table) ORDER BY \(newest), rowid LIMIT ?)
                """, arguments: [rows - count])
    }

    /// The tables kept to a size by ``keepNewest(_:of:by:in:)``, whose rows `rowCount` counts.
    static let countedTables = ["signIn", "visitorLanguage"]

    /// The schema, one migration per change; never edit one that has shipped.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: accounts, lots, bids") { db in
            try db.create(table: "account") { table in
                // EmailAddress.key: how addresses are matched.
                table.primaryKey("key", .text)
                table.column("email", .text).notNull()
                table.column("name", .text).notNull()
                table.column("website", .text).notNull()
                // PasswordHash.encoded: the scheme, its parameters, salt and hash.
                table.column("passwordHash", .text).notNull()
            }
            try db.create(table: "lot") { table in
                table.primaryKey("id", .text)
                // Seconds since 1970: times on the auction clock do not survive a restart.
                table.column("closesAt", .double).notNull()
                table.column("listedFor", .double).notNull()
                table.column("round", .integer).notNull().defaults(to: 1)
                table.column("isClosed", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "bid") { table in
                table.autoIncrementedPrimaryKey("sequence")
                table.column("lotID", .text).notNull().references("lot")
                table.column("round", .integer).notNull()
                table.column("bidder", .text).notNull()
                table.column("amountCents", .integer).notNull()
                table.column("placedAt", .double).notNull()
            }
            try db.create(index: "bidByLot", on: "bid", columns: ["lotID", "round", "sequence"])
            try db.create(index: "bidByBidder", on: "bid", columns: ["bidder", "sequence"])
        }
        migrator.registerMigration("v2: visitors' sign-ins") { db in
            try db.create(table: "signIn") { table in
                // The visitor's id from their signed cookie (VisitorID).
                table.primaryKey("visitor", .text)
                table.column("accountKey", .text).notNull().references("account", onDelete: .cascade)
                table.column("signedInAt", .double).notNull().indexed()
            }
        }
        migrator.registerMigration("v3: each lot's bids so far and a version") { db in
            try db.alter(table: "lot") { table in
                table.add(column: "bidCount", .integer).notNull().defaults(to: 0)
                table.add(column: "highCents", .integer).notNull().defaults(to: 0)
                table.add(column: "highBidder", .text)
                table.add(column: "version", .integer).notNull().defaults(to: 1)
            }
            // Bids only go up: the round's last bid is its highest.
            try db.execute(
                sql: """
                    UPDATE lot SET
                        bidCount = (SELECT COUNT(*) FROM bid WHERE bid.lotID = lot.id AND bid.round = lot.round),
                        highCents = COALESCE((SELECT amountCents FROM bid WHERE bid.lotID = lot.id AND bid.round = lot.round
                            ORDER BY sequence DESC LIMIT 1), 0),
                        highBidder = (SELECT bidder FROM bid WHERE bid.lotID = lot.id AND bid.round = lot.round
                            ORDER BY sequence DESC LIMIT 1)
                    """)
        }
        migrator.registerMigration("v4: visitors' languages") { db in
            try db.create(table: "visitorLanguage") { table in
                // The visitor's id from their signed cookie (VisitorID).
                table.primaryKey("visitor", .text)
                // KioskLanguage's tag: "en", "de".
                table.column("language", .text).notNull()
                table.column("chosenAt", .double).notNull().indexed()
            }
        }
        migrator.registerMigration("v5: accounts' pictures") { db in
            try db.create(table: "avatar") { table in
                // The account's sign-in address (Account.email).
                table.primaryKey("email", .text)
                // The picture's file in the avatars folder: a fresh random name per picture.
                table.column("file", .text).notNull()
                table.column("keptAt", .double).notNull()
            }
        }
        migrator.registerMigration("v6: row counts of the tables kept to a size") { db in
            try db.create(table: "rowCount") { table in
                table.primaryKey("tableName", .text)
                table.column("rows", .integer).notNull()
            }
            // Kept by the database itself, so every node sharing the file, and every
            // delete, counts (an upsert that updates fires no INSERT trigger).
            for table in countedTables {
                try db.execute(
                    sql: "INSERT INTO rowCount (tableName, rows) SELECT ?, COUNT(*) FROM \(table)", arguments: [table])
                try db.execute(
                    sql: """
                        CREATE TRIGGER \(table)Inserted AFTER INSERT ON \(table) BEGIN
                        UPDATE rowCount SET rows = rows + 1 WHERE tableName = '\(table)'; END
                        """)
                try db.execute(
                    sql: """
                        CREATE TRIGGER \(table)Deleted AFTER DELETE ON \(table) BEGIN
                        UPDATE rowCount SET rows = rows - 1 WHERE tableName = '\(table)'; END
                        """)
            }
        }
        return migrator
    }

    /// `mkdir -p`, saying which part failed and why.
    static func makeDirectory(_ path: String) throws(StoreError) {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o755) != 0, errno != EEXIST {
                throw StoreError(
                    "cannot create the data directory \(path): \(String(cString: strerror(errno))) (at \(partial))")
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw StoreError("cannot create the data directory \(path): a file of that name is in the way")
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return
                "\(error.message ?? "SQLite error \(error.resultCode.rawValue)") (SQLite code \(error.extendedResultCode.rawValue))"
        }
        return (error as NSError).localizedDescription
    }
}

/// The data directory or the database cannot be used; the message says why and where.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
