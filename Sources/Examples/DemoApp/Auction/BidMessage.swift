import Footlight
import FootlightJSON

/// The outcome of a bid as the page shows it: `{"text", "error"}`.
public struct BidMessage: ViewValue, Equatable, Sendable {
    /// The sentence shown.
    public let text: String
    /// Whether it reports a failure (styled as an error, announced assertively).
    public let isError: Bool

    /// A message with its tone.
    public init(text: String, isError: Bool) {
        self.text = text
        self.isError = isError
    }

    /// "Your bid of $1,250.00 is the highest bid."
    public static func accepted(_ bid: Bid) -> BidMessage {
        BidMessage(
            text: "Your bid of \(MoneyFormat.string(cents: bid.amountCents)) is the highest bid.", isError: false)
    }

    /// "You were outbid: the highest bid is now $1,300.00." (after one's own accepted bid)
    public static func outbid(_ bid: Bid, highestCents: Int) -> BidMessage {
        BidMessage(
            text:
                "You were outbid: the highest bid is now \(MoneyFormat.string(cents: highestCents)) (yours was \(MoneyFormat.string(cents: bid.amountCents))).",
            isError: true)
    }

    /// Why a bid was not placed, for the user: money formatted, the service's reason
    /// in plain words.
    public static func refused(_ error: any Error) -> BidMessage {
        let reason =
            switch error as? BidError {
            case .tooLow(let minimum)?:
                "someone bid first. The least you can bid now is \(MoneyFormat.string(cents: minimum))."
            case .lotClosed?: "bidding on this lot has closed."
            case .unknownLot?: "this lot is no longer listed."
            case .missingBidder?: "please sign in again."
            case .notRecorded?: "the auction could not record it. Please try again."
            case nil: "please try again."
            }
        return BidMessage(text: "Bid not placed: \(reason)", isError: true)
    }

    public var viewJSON: JSON { ["text": .string(text), "error": .bool(isError)] }
}
