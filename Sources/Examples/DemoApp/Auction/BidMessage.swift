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
    public static func accepted(_ bid: Bid, in language: KioskLanguage = .fallback) -> BidMessage {
        BidMessage(
            text: language.strings.bidAccepted(MoneyFormat.string(cents: bid.amountCents, in: language)),
            isError: false)
    }

    /// "You were outbid: the highest bid is now $1,300.00 (yours was $1,250.00)." (after
    /// one's own accepted bid)
    public static func outbid(_ bid: Bid, highestCents: Int, in language: KioskLanguage = .fallback) -> BidMessage {
        BidMessage(
            text: language.strings.outbid(
                MoneyFormat.string(cents: highestCents, in: language),
                MoneyFormat.string(cents: bid.amountCents, in: language)),
            isError: true)
    }

    /// Why a bid was not placed, for the user: money formatted, the service's reason
    /// in plain words.
    public static func refused(_ error: any Error, in language: KioskLanguage = .fallback) -> BidMessage {
        let bidError = error as? BidError
        let minimum: String? =
            if case .tooLow(let cents)? = bidError { MoneyFormat.string(cents: cents, in: language) } else { nil }
        let strings = language.strings
        return BidMessage(text: strings.bidRefused(strings.bidError(bidError, minimum)), isError: true)
    }

    public var viewJSON: JSON { ["text": .string(text), "error": .bool(isError)] }
}
