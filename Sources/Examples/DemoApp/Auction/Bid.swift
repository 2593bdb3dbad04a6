/// An accepted bid.
public struct Bid: Equatable, Sendable {
    /// The lot bid on.
    public let lotID: String
    /// The bidder's account id.
    public let bidder: String
    /// The amount, in cents.
    public let amountCents: Int
    /// When the service accepted it, on the auction clock.
    public let placedAt: Duration
    /// The service-wide order of acceptance, from 1.
    public let sequence: Int

    /// A bid as the service records it.
    public init(lotID: String, bidder: String, amountCents: Int, placedAt: Duration, sequence: Int) {
        self.lotID = lotID
        self.bidder = bidder
        self.amountCents = amountCents
        self.placedAt = placedAt
        self.sequence = sequence
    }
}

/// Why the auction service refused a bid. The Director turns it into a message for
/// the user (with money formatted); ``description`` is for logs.
public enum BidError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No lot has this id.
    case unknownLot(id: String)
    /// Bidding on the lot has ended.
    case lotClosed(id: String)
    /// The amount is below the lot's minimum next bid, which is given.
    case tooLow(minimumCents: Int)
    /// The bidder's account id is empty.
    case missingBidder
    /// The bid could not be written to the database (it was not accepted; logged).
    case notRecorded

    public var description: String {
        switch self {
        case .unknownLot(let id): "no lot has the id \"\(id)\""
        case .lotClosed(let id): "bidding on lot \"\(id)\" has closed"
        case .tooLow(let minimum): "the bid must be at least \(minimum) cents"
        case .missingBidder: "a bid needs the bidder's account id"
        case .notRecorded: "the bid could not be recorded"
        }
    }
}
