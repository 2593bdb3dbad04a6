import Footlight
import FootlightJSON

/// The bids on a lot so far, for the lot page's chart (a JavaScript hook draws it): the
/// amounts in the order they were accepted, the last ``shown`` of them, and what the
/// chart's axis and a screen reader say.
public struct BidHistory: ViewValue, Equatable, Sendable {
    /// The lot the bids are on; nil before one is known.
    public let lotID: String?
    /// How many bids the lot has (the chart may show fewer).
    public let count: Int
    /// The amounts of the last ``shown`` bids, oldest first, in cents.
    public let amountsCents: [Int]

    /// The most bids the chart shows: a lot's history grows with every bid, a page's
    /// document may not.
    public static let shown = 50

    /// No lot, no bids.
    public static let empty = BidHistory(lotID: nil, count: 0, amountsCents: [])

    /// The language its texts are in.
    public let language: KioskLanguage

    public init(lotID: String?, count: Int, amountsCents: [Int], language: KioskLanguage = .fallback) {
        self.lotID = lotID
        self.count = count
        self.amountsCents = Array(amountsCents.suffix(Self.shown))
        self.language = language
    }

    /// The same history, its texts in `language`.
    public func speaking(_ language: KioskLanguage) -> BidHistory {
        guard language != self.language else { return self }
        return BidHistory(lotID: lotID, count: count, amountsCents: amountsCents, language: language)
    }

    /// "No bids yet.", "1 bid: $1,200.00.", "3 bids, from $1,200.00 to $1,300.00.", in ``language``.
    public var summary: String {
        let strings = language.strings
        guard let first = amountsCents.first, let last = amountsCents.last else { return strings.noBidsYet }
        let money = { MoneyFormat.string(cents: $0, in: language) }
        if count == 1 { return strings.oneBid(money(last)) }
        return strings.bidRange(
            MoneyFormat.grouped(count, in: language), money(first), money(last),
            count > amountsCents.count ? amountsCents.count : nil)
    }

    /// The history after the lot changed to `lot`. A bid the page saw arrive is added;
    /// a lot opened now, or bids that came faster than the lot's changes, are read from
    /// the ledger (`pastBids`: the amounts of the lot's bids this round, oldest first).
    public func following(_ lot: Lot?, pastBids: (String) -> [Int]) -> BidHistory {
        guard let lot, lot.bidCount > 0 else {
            return BidHistory(lotID: lot?.id, count: 0, amountsCents: [], language: language)
        }
        if lot.id == lotID {
            if lot.bidCount == count { return self }
            if lot.bidCount == count + 1 {
                return BidHistory(
                    lotID: lot.id, count: lot.bidCount, amountsCents: amountsCents + [lot.currentBidCents],
                    language: language)
            }
        }
        return BidHistory(lotID: lot.id, count: lot.bidCount, amountsCents: pastBids(lot.id), language: language)
    }

    /// `{"amounts": [120000, 125000], "low": "$1,200.00", "high": "$1,250.00", "summary": …}`,
    /// the texts in ``language``.
    public var viewJSON: JSON {
        let money = { MoneyFormat.string(cents: $0, in: language) }
        return [
            "amounts": .array(amountsCents.map { .int(Int64($0)) }),
            "low": .string(amountsCents.min().map(money) ?? ""),
            "high": .string(amountsCents.max().map(money) ?? ""),
            "summary": .string(summary),
        ]
    }

}
