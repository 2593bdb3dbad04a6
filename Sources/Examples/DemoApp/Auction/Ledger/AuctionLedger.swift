import FootlightJSON

/// Where the auction's lots and bids are kept, and what decides whether a bid is
/// accepted: SQLite on one node (``SQLiteAuctionLedger``), Redis across nodes
/// (``RedisAuctionLedger``). Every change is checked and made atomically by the ledger,
/// so two nodes bidding on one lot at once can never both accept the same amount, nor
/// one below the current bid. Times are wall-clock seconds since 1970. Thread-safe.
public protocol AuctionLedger: Sendable {
    /// Where the data lives, for log lines and errors.
    var location: String { get }

    /// Each lot's record, keyed by id; a lot the ledger does not have yet is recorded as
    /// `initial` gives it (whichever of several nodes opening at once comes first).
    func open(_ initial: [(id: String, record: LotRecord)]) throws(StoreError) -> [String: LotRecord]

    /// The current records of `ids` (those the ledger has).
    func records(_ ids: [String]) throws(StoreError) -> [String: LotRecord]

    /// Accepts a bid when the lot is open at `now()` and the amount is at least
    /// the minimum (the starting price first, then the current bid plus
    /// ``Lot/minimumIncrement(above:)``). Returns the bid and the lot's new record. Bid
    /// times never go backwards in sequence order (SQLite reads `now()` inside its write
    /// transaction; Redis keeps the later of `now()` and the last bid's time).
    func placeBid(
        on lotID: String, amountCents: Int, bidder: String, startingPriceCents: Int, now: @Sendable () -> Double
    ) -> Result<(bid: StoredBid, record: LotRecord), BidError>

    /// Closes the lot if it is still open in `round` and due at `now`. Returns its
    /// record and whether this call changed it (false: already closed, relisted, not
    /// due, or closed by another node first).
    func close(_ lotID: String, round: Int, now: Double) throws(StoreError) -> (record: LotRecord, changed: Bool)?

    /// Lists a lot closed in `round` again, with no bids, closing at `closesAt`.
    /// Returns its record and whether this call changed it.
    func relist(_ lotID: String, round: Int, closesAt: Double) throws(StoreError) -> (
        record: LotRecord, changed: Bool
    )?

    /// The bids on `round` of a lot, oldest first.
    func bids(onLot lotID: String, round: Int) throws(StoreError) -> [StoredBid]

    /// The bids an account placed, oldest first.
    func bids(by bidder: String) throws(StoreError) -> [StoredBid]

    /// One page of the bids on `round` of a lot, oldest first: at most `limit`, from
    /// `cursor` (0 for the first page). Returns them and the next page's cursor, nil
    /// after the last, so a reader holds one page at a time however many bids there are.
    func bids(onLot lotID: String, round: Int, from cursor: Int, limit: Int) throws(StoreError) -> (
        bids: [StoredBid], next: Int?
    )
}

/// A lot's listing and bidding state, as a ledger keeps it.
public struct LotRecord: Equatable, Sendable {
    /// When the listing closes, in seconds since 1970.
    public var closesAt: Double
    /// How long each listing runs, in seconds.
    public var listedFor: Double
    /// Which listing this is, from 1; bids belong to one round.
    public var round: Int
    public var isClosed: Bool
    /// Bids on this round, the highest and who placed it.
    public var bidCount: Int
    public var highCents: Int
    public var highBidder: String?
    /// One more with every change, so a node applies a record only when it is newer
    /// than the one it has (records may arrive in any order, or twice).
    public var version: Int

    public init(
        closesAt: Double, listedFor: Double, round: Int, isClosed: Bool, bidCount: Int, highCents: Int,
        highBidder: String?, version: Int
    ) {
        self.closesAt = closesAt
        self.listedFor = listedFor
        self.round = round
        self.isClosed = isClosed
        self.bidCount = bidCount
        self.highCents = highCents
        self.highBidder = highBidder
        self.version = version
    }

    /// The least the next bid may be.
    func minimumNextBidCents(startingPriceCents: Int) -> Int {
        bidCount == 0 ? startingPriceCents : highCents + Lot.minimumIncrement(above: highCents)
    }

    /// The record as JSON, for the nodes' pub/sub.
    func json(lotID: String) -> JSON {
        [
            "lot": .string(lotID), "closesAt": .double(closesAt), "listedFor": .double(listedFor),
            "round": .int(Int64(round)), "isClosed": .bool(isClosed), "bidCount": .int(Int64(bidCount)),
            "highCents": .int(Int64(highCents)), "highBidder": highBidder.map(JSON.string) ?? .null,
            "version": .int(Int64(version)),
        ]
    }

    /// A record read from ``json(lotID:)``'s JSON, with its lot's id; nil for anything else.
    static func from(_ json: JSON) -> (lotID: String, record: LotRecord)? {
        func int(_ key: String) -> Int? {
            if case .int(let value)? = json[key] { return Int(value) }
            return nil
        }
        func double(_ key: String) -> Double? {
            switch json[key] {
            case .double(let value)?: value
            case .int(let value)?: Double(value)
            default: nil
            }
        }
        guard let lotID = json["lot"]?.stringValue, let closesAt = double("closesAt"),
            let listedFor = double("listedFor"), let round = int("round"), case .bool(let isClosed)? = json["isClosed"],
            let bidCount = int("bidCount"), let highCents = int("highCents"), let version = int("version"),
            round > 0, bidCount >= 0, version > 0
        else { return nil }
        let highBidder = json["highBidder"]?.stringValue
        return (
            lotID,
            LotRecord(
                closesAt: closesAt, listedFor: listedFor, round: round, isClosed: isClosed, bidCount: bidCount,
                highCents: highCents, highBidder: highBidder, version: version)
        )
    }
}

/// A bid as a ledger keeps it (its time in seconds since 1970).
public struct StoredBid: Equatable, Sendable {
    public let sequence: Int
    public let lotID: String
    public let round: Int
    public let bidder: String
    public let amountCents: Int
    public let placedAt: Double
}
