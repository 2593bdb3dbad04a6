import FootlightJSON
import FootlightRedis
import Logging

/// The auction's ledger in Redis, shared by every node: a hash per lot, a list of bids
/// per lot and per bidder, and one counter numbering bids. Each change is one Lua
/// script, which Redis runs atomically, so two nodes bidding on one lot at once can
/// never both accept the same amount. With append-only persistence (as
/// `scripts/cluster` runs Redis), a Redis restart loses no accepted bid.
public final class RedisAuctionLedger: AuctionLedger {
    private let pool: RedisPool
    private let prefix: String
    private let logger: Logger

    /// A ledger on the Redis at `address`, its keys starting with `prefix`.
    public init(
        address: RedisAddress, prefix: String = "footlight-demo:auction:",
        logger: Logger = Logger(label: "footlight.auction")
    ) {
        pool = RedisPool(address: address)
        self.prefix = prefix
        self.logger = logger
    }

    public var location: String { "Redis at \(pool.address)" }

    public func open(_ initial: [(id: String, record: LotRecord)]) throws(StoreError) -> [String: LotRecord] {
        var records: [String: LotRecord] = [:]
        for (id, record) in initial {
            let reply = try run(
                Self.openScript, keys: [lotKey(id)],
                arguments: [
                    String(record.closesAt), String(record.listedFor), record.isClosed ? "1" : "0",
                    String(record.bidCount), String(record.highCents), record.highBidder ?? "",
                ], "the auction's lots cannot be read from \(location)")
            records[id] = try Self.record(reply, "lot \(id)")
        }
        return records
    }

    public func records(_ ids: [String]) throws(StoreError) -> [String: LotRecord] {
        var records: [String: LotRecord] = [:]
        for id in ids {
            let reply = try command(["HGETALL", lotKey(id)], "the lot \(id) cannot be read from \(location)")
            if case .array(let fields) = reply, !fields.isEmpty { records[id] = try Self.record(reply, "lot \(id)") }
        }
        return records
    }

    public func placeBid(
        on lotID: String, amountCents: Int, bidder: String, startingPriceCents: Int, now: @Sendable () -> Double
    ) -> Result<(bid: StoredBid, record: LotRecord), BidError> {
        do {
            let reply = try run(
                Self.bidScript,
                keys: [
                    lotKey(lotID), prefix + "seq", prefix + "bids:" + lotID, prefix + "bidder:" + bidder,
                    prefix + "lastBidAt",
                ],
                arguments: [lotID, String(amountCents), bidder, String(now()), String(startingPriceCents)]
                    + Self.incrementArguments,
                "a bid on \(lotID) cannot be recorded in \(location)")
            guard case .array(let parts) = reply, let status = parts.first?.text else {
                throw StoreError("\(location) answered a bid with \(reply)")
            }
            switch (status, parts.count) {
            case ("unknown", _): return .failure(.unknownLot(id: lotID))
            case ("closed", _): return .failure(.lotClosed(id: lotID))
            case ("low", 2):
                guard case .integer(let minimum) = parts[1] else { break }
                return .failure(.tooLow(minimumCents: Int(minimum)))
            case ("ok", 3...):
                guard case .integer(let sequence) = parts[1], let placedAt = parts[2].text.flatMap(Double.init) else {
                    break
                }
                let record = try Self.record(.array(Array(parts.dropFirst(3))), "lot \(lotID)")
                let bid = StoredBid(
                    sequence: Int(sequence), lotID: lotID, round: record.round, bidder: bidder,
                    amountCents: amountCents, placedAt: placedAt)
                return .success((bid, record))
            default: break
            }
            throw StoreError("\(location) answered a bid with \(reply)")
        } catch {
            logger.error("\(error)")
            return .failure(.notRecorded)
        }
    }

    public func close(_ lotID: String, round: Int, now: Double) throws(StoreError) -> (
        record: LotRecord, changed: Bool
    )? {
        try change(
            Self.closeScript, lotID, [String(round), String(now)], "the closing of \(lotID) cannot be recorded")
    }

    public func relist(_ lotID: String, round: Int, closesAt: Double) throws(StoreError) -> (
        record: LotRecord, changed: Bool
    )? {
        try change(
            Self.relistScript, lotID, [String(round), String(closesAt)], "the relisting of \(lotID) cannot be recorded")
    }

    public func bids(onLot lotID: String, round: Int) throws(StoreError) -> [StoredBid] {
        try fetchBids(prefix + "bids:" + lotID).filter { $0.round == round }
    }

    public func bids(by bidder: String) throws(StoreError) -> [StoredBid] {
        try fetchBids(prefix + "bidder:" + bidder)
    }

    /// The cursor is a position in the lot's list of bids (every round's, in order).
    public func bids(onLot lotID: String, round: Int, from cursor: Int, limit: Int) throws(StoreError) -> (
        bids: [StoredBid], next: Int?
    ) {
        let (start, limit) = (max(0, cursor), max(1, limit))
        let (bids, read) = try fetchBids(prefix + "bids:" + lotID, from: start, to: start + limit - 1)
        return (bids.filter { $0.round == round }, read == limit ? start + limit : nil)
    }

    // MARK: Private

    /// The increment table as the bid script reads it: below, step, …, the step above.
    private static let incrementArguments =
        Lot.incrementSteps.flatMap { [String($0.below), String($0.step)] } + [String(Lot.incrementAbove)]

    private func lotKey(_ id: String) -> String { prefix + "lot:" + id }

    /// Runs a close or relist script: nil for an unknown lot, else the record and
    /// whether it changed.
    private func change(_ script: RedisScript, _ lotID: String, _ arguments: [String], _ what: String)
        throws(StoreError)
        -> (record: LotRecord, changed: Bool)?
    {
        let reply = try run(script, keys: [lotKey(lotID)], arguments: arguments, "\(what) in \(location)")
        guard case .array(let parts) = reply, case .integer(let changed)? = parts.first else { return nil }
        return (try Self.record(.array(Array(parts.dropFirst())), "lot \(lotID)"), changed == 1)
    }

    private func fetchBids(_ key: String) throws(StoreError) -> [StoredBid] {
        try fetchBids(key, from: 0, to: -1).bids
    }

    /// The bids at positions `first` to `last` of the list `key` (-1: its end), and how
    /// many items were read.
    private func fetchBids(_ key: String, from first: Int, to last: Int) throws(StoreError) -> (
        bids: [StoredBid], read: Int
    ) {
        let reply = try command(
            ["LRANGE", key, String(first), String(last)], "the bids cannot be read from \(location)")
        guard case .array(let items) = reply else { return ([], 0) }
        let bids = items.compactMap { item -> StoredBid? in
            guard case .string(let bytes) = item, let json = try? JSON.parse(bytes),
                case .int(let sequence)? = json["seq"], let lotID = json["lot"]?.stringValue,
                case .int(let round)? = json["round"], let bidder = json["bidder"]?.stringValue,
                case .int(let cents)? = json["cents"]
            else {
                logger.warning("a bid in \(key) in \(location) cannot be read; skipped")
                return nil
            }
            let placedAt = json["at"]?.stringValue.flatMap(Double.init) ?? 0
            return StoredBid(
                sequence: Int(sequence), lotID: lotID, round: Int(round), bidder: bidder, amountCents: Int(cents),
                placedAt: placedAt)
        }
        return (bids, items.count)
    }

    private func run(_ script: RedisScript, keys: [String], arguments: [String], _ what: String) throws(StoreError)
        -> RedisReply
    {
        let reply: RedisReply
        do {
            reply = try pool.withConnection { connection throws(RedisError) in
                try script.run(on: connection, keys: keys, arguments: arguments)
            }
        } catch {
            throw StoreError("\(what): \(error)")
        }
        if case .error(let text) = reply { throw StoreError("\(what): \(text)") }
        return reply
    }

    private func command(_ arguments: [String], _ what: String) throws(StoreError) -> RedisReply {
        let reply: RedisReply
        do {
            reply = try pool.withConnection { connection throws(RedisError) in
                try connection.command(arguments.map { Array($0.utf8) })
            }
        } catch {
            throw StoreError("\(what): \(error)")
        }
        if case .error(let text) = reply { throw StoreError("\(what): \(text)") }
        return reply
    }

    /// A record from a lot hash's fields and values (`HGETALL`).
    private static func record(_ reply: RedisReply, _ what: String) throws(StoreError) -> LotRecord {
        guard case .array(let parts) = reply, parts.count % 2 == 0 else {
            throw StoreError("\(what) in Redis is not a lot: \(reply)")
        }
        var fields: [String: String] = [:]
        for index in stride(from: 0, to: parts.count, by: 2) {
            guard let name = parts[index].text, let value = parts[index + 1].text else { continue }
            fields[name] = value
        }
        guard let closesAt = fields["closesAt"].flatMap(Double.init),
            let listedFor = fields["listedFor"].flatMap(Double.init), let round = fields["round"].flatMap(Int.init),
            let isClosed = fields["isClosed"], let bidCount = fields["bidCount"].flatMap(Int.init),
            let highCents = fields["highCents"].flatMap(Int.init), let version = fields["version"].flatMap(Int.init)
        else { throw StoreError("\(what) in Redis lacks fields: \(fields)") }
        let highBidder = fields["highBidder"].flatMap { $0.isEmpty ? nil : $0 }
        return LotRecord(
            closesAt: closesAt, listedFor: listedFor, round: round, isClosed: isClosed == "1", bidCount: bidCount,
            highCents: highCents, highBidder: highBidder, version: version)
    }
}
