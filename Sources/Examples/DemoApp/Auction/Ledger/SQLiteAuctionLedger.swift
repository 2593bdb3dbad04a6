import GRDB
import Logging

/// The auction's ledger in the kiosk's SQLite database: one node's embedded default.
/// Each change is one write transaction (SQLite serialises writers, across processes
/// sharing the file too).
public final class SQLiteAuctionLedger: AuctionLedger {
    private let database: KioskDatabase
    private let logger: Logger

    public init(database: KioskDatabase, logger: Logger = Logger(label: "footlight.auction")) {
        self.database = database
        self.logger = logger
    }

    public var location: String { database.location }

    public func open(_ initial: [(id: String, record: LotRecord)]) throws(StoreError) -> [String: LotRecord] {
        try write("the auction's lots cannot be read from \(location)") { db in
            var records: [String: LotRecord] = [:]
            for (id, record) in initial {
                if let kept = try Self.record(id, in: db) {
                    records[id] = kept
                    continue
                }
                try db.execute(
                    sql: """
                        INSERT INTO lot (id, closesAt, listedFor, round, isClosed, bidCount, highCents, highBidder, version)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        id, record.closesAt, record.listedFor, record.round, record.isClosed, record.bidCount,
                        record.highCents, record.highBidder, record.version,
                    ])
                records[id] = record
            }
            return records
        }
    }

    public func records(_ ids: [String]) throws(StoreError) -> [String: LotRecord] {
        do {
            return try database.writer.read { db in
                var records: [String: LotRecord] = [:]
                for id in ids { records[id] = try Self.record(id, in: db) }
                return records
            }
        } catch {
            throw StoreError("the auction's lots cannot be read from \(location): \(error)")
        }
    }

    public func placeBid(
        on lotID: String, amountCents: Int, bidder: String, startingPriceCents: Int, now: @Sendable () -> Double
    ) -> Result<(bid: StoredBid, record: LotRecord), BidError> {
        do {
            return try database.writer.write { db -> Result<(bid: StoredBid, record: LotRecord), BidError> in
                guard var record = try Self.record(lotID, in: db) else { return .failure(.unknownLot(id: lotID)) }
                let placedAt = now()
                guard !record.isClosed, placedAt < record.closesAt else { return .failure(.lotClosed(id: lotID)) }
                let minimum = record.minimumNextBidCents(startingPriceCents: startingPriceCents)
                guard amountCents >= minimum else { return .failure(.tooLow(minimumCents: minimum)) }
                try db.execute(
                    sql: "INSERT INTO bid (lotID, round, bidder, amountCents, placedAt) VALUES (?, ?, ?, ?, ?)",
                    arguments: [lotID, record.round, bidder, amountCents, placedAt])
                let sequence = Int(db.lastInsertedRowID)
                record.bidCount += 1
                record.highCents = amountCents
                record.highBidder = bidder
                record.version += 1
                try db.execute(
                    sql: "UPDATE lot SET bidCount = ?, highCents = ?, highBidder = ?, version = ? WHERE id = ?",
                    arguments: [record.bidCount, record.highCents, record.highBidder, record.version, lotID])
                let bid = StoredBid(
                    sequence: sequence, lotID: lotID, round: record.round, bidder: bidder, amountCents: amountCents,
                    placedAt: placedAt)
                return .success((bid, record))
            }
        } catch {
            logger.error("a bid on \(lotID) could not be recorded in \(location): \(error)")
            return .failure(.notRecorded)
        }
    }

    public func close(_ lotID: String, round: Int, now: Double) throws(StoreError) -> (
        record: LotRecord, changed: Bool
    )? {
        try write("the closing of \(lotID) cannot be recorded in \(location)") { db in
            guard var record = try Self.record(lotID, in: db) else { return nil }
            guard record.round == round, !record.isClosed, now >= record.closesAt else { return (record, false) }
            record.isClosed = true
            record.version += 1
            try db.execute(
                sql: "UPDATE lot SET isClosed = 1, version = ? WHERE id = ?", arguments: [record.version, lotID])
            return (record, true)
        }
    }

    public func relist(_ lotID: String, round: Int, closesAt: Double) throws(StoreError) -> (
        record: LotRecord, changed: Bool
    )? {
        try write("the relisting of \(lotID) cannot be recorded in \(location)") { db in
            guard let record = try Self.record(lotID, in: db) else { return nil }
            guard record.round == round, record.isClosed else { return (record, false) }
            let relisted = LotRecord(
                closesAt: closesAt, listedFor: record.listedFor, round: round + 1, isClosed: false, bidCount: 0,
                highCents: 0, highBidder: nil, version: record.version + 1)
            try db.execute(
                sql: """
                    UPDATE lot SET round = ?, closesAt = ?, isClosed = 0, bidCount = 0, highCents = 0,
                        highBidder = NULL, version = ? WHERE id = ?
                    """,
                arguments: [relisted.round, closesAt, relisted.version, lotID])
            return (relisted, true)
        }
    }

    public func bids(onLot lotID: String, round: Int) throws(StoreError) -> [StoredBid] {
        try fetchBids("lotID = ? AND round = ?", [lotID, round])
    }

    public func bids(by bidder: String) throws(StoreError) -> [StoredBid] {
        try fetchBids("bidder = ?", [bidder])
    }

    /// The cursor is the sequence of the last bid read.
    public func bids(onLot lotID: String, round: Int, from cursor: Int, limit: Int) throws(StoreError) -> (
        bids: [StoredBid], next: Int?
    ) {
        let limit = max(1, limit)
        let bids = try fetchBids("lotID = ? AND round = ? AND sequence > ?", [lotID, round, cursor], limit: limit)
        return (bids, bids.count == limit ? bids.last?.sequence : nil)
    }

    // MARK: Private

    private func fetchBids(_ condition: String, _ arguments: StatementArguments, limit: Int? = nil) throws(StoreError)
        -> [StoredBid]
    {
        do {
            return try database.writer.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT sequence, lotID, round, bidder, amountCents, placedAt FROM bid WHERE \(condition)
                        ORDER BY sequence\(limit.map { " LIMIT \($0)" } ?? "")
                        """,
                    arguments: arguments
                ).map { row in
                    StoredBid(
                        sequence: row["sequence"], lotID: row["lotID"], round: row["round"], bidder: row["bidder"],
                        amountCents: row["amountCents"], placedAt: row["placedAt"])
                }
            }
        } catch {
            throw StoreError("the bids cannot be read from \(location): \(error)")
        }
    }

    private func write<T>(_ what: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try database.writer.write(body)
        } catch {
            throw StoreError("\(what): \(error)")
        }
    }

    private static func record(_ lotID: String, in db: Database) throws -> LotRecord? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT closesAt, listedFor, round, isClosed, bidCount, highCents, highBidder, version
                    FROM lot WHERE id = ?
                    """,
                arguments: [lotID])
        else { return nil }
        return LotRecord(
            closesAt: row["closesAt"], listedFor: row["listedFor"], round: row["round"], isClosed: row["isClosed"],
            bidCount: row["bidCount"], highCents: row["highCents"], highBidder: row["highBidder"],
            version: row["version"])
    }
}
