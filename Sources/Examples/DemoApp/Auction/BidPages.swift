/// The bids on one listing of a lot, read from the ledger a page at a time, so that a
/// reader of thousands of bids (the CSV export) holds one page at once.
public struct BidPages: Sendable {
    private let ledger: any AuctionLedger
    public let lotID: String
    /// The listing (round) the bids are on.
    public let round: Int
    private let pageSize: Int
    /// Where the next page starts; nil after the last.
    private var cursor: Int? = 0

    init(ledger: any AuctionLedger, lotID: String, round: Int, pageSize: Int) {
        self.ledger = ledger
        self.lotID = lotID
        self.round = round
        self.pageSize = max(1, pageSize)
    }

    /// The next page of bids, oldest first (wall-clock times), or nil after the last.
    ///
    /// - Throws: ``StoreError`` when the ledger cannot be read.
    public mutating func next() throws(StoreError) -> [StoredBid]? {
        guard let from = cursor else { return nil }
        let page = try ledger.bids(onLot: lotID, round: round, from: from, limit: pageSize)
        cursor = page.next
        if page.bids.isEmpty, page.next == nil { return nil }
        return page.bids
    }
}
