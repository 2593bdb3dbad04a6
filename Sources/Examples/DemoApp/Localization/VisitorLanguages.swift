import Footlight
import Foundation
import GRDB
import Logging

/// The language each visitor (a browser, by its signed cookie) chose with the
/// listings' switch, kept in the kiosk's database: the choice holds after a reload, in
/// a new tab and after a restart, where the browser's `Accept-Language` would pick
/// again. Thread-safe; at most ``capacity`` visitors, the oldest choices go first.
public final class VisitorLanguages: Sendable {
    private let database: KioskDatabase
    private let logger: Logger
    /// At most this many visitors' choices are kept.
    public let capacity: Int

    /// The choices in `database` (a new one in memory by default).
    public init(
        database: KioskDatabase = KioskDatabase(), capacity: Int = 40_000,
        logger: Logger = Logger(label: "footlight.languages")
    ) {
        self.database = database
        self.capacity = capacity
        self.logger = logger
    }

    /// The language `visitor` chose, nil when they never chose one (or it is one the
    /// kiosk no longer speaks).
    public func language(of visitor: VisitorID) -> KioskLanguage? {
        do {
            let tag = try database.writer.read { db in
                try String.fetchOne(
                    db, sql: "SELECT language FROM visitorLanguage WHERE visitor = ?", arguments: [visitor.rawValue])
            }
            return tag.flatMap(KioskLanguage.init(tag:))
        } catch {
            logger.error("a visitor's language could not be read from \(database.location): \(error)")
            return nil
        }
    }

    /// Remembers that `visitor` chose `language`.
    public func remember(_ language: KioskLanguage, for visitor: VisitorID) {
        let keep = capacity
        database.writeOrLog("a visitor's language", to: logger) { db in
            try db.execute(
                sql: """
                    INSERT INTO visitorLanguage (visitor, language, chosenAt) VALUES (?, ?, ?)
                    ON CONFLICT(visitor) DO UPDATE SET language = excluded.language, chosenAt = excluded.chosenAt
                    """, arguments: [visitor.rawValue, language.rawValue, Date().timeIntervalSince1970])
            try KioskDatabase.keepNewest(keep, of: "visitorLanguage", by: "chosenAt", in: db)
        }
    }

    /// How many visitors' choices are kept.
    public var count: Int {
        (try? database.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM visitorLanguage") }) ?? 0
    }
}
