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

    public init(lotID: String?, count: Int, amountsCents: [Int]) {
        self.lotID = lotID
        self.count = count
        self.amountsCents = Array(amountsCents.suffix(Self.shown))
    }

    /// "No bids yet.", "1 bid: $1,200.00.", "3 bids, from $1,200.00 to $1,300.00."
    public var summary: String {
        guard let first = amountsCents.first, let last = amountsCents.last else { return "No bids yet." }
        if count == 1 { return "1 bid: \(MoneyFormat.string(cents: last))." }
        let shown = count > amountsCents.count ? " (the last \(amountsCents.count) shown)" : ""
        return "\(count) bids, from \(MoneyFormat.string(cents: first)) to \(MoneyFormat.string(cents: last))\(shown)."
    }

    /// The history after the lot changed to `lot`. A bid the page saw arrive is added;
    /// a lot opened now, or bids that came faster than the lot's changes, are read from
    /// the ledger (`pastBids`: the amounts of the lot's bids this round, oldest first).
    public func following(_ lot: Lot?, pastBids: (String) -> [Int]) -> BidHistory {
        guard let lot, lot.bidCount > 0 else { return BidHistory(lotID: lot?.id, count: 0, amountsCents: []) }
        if lot.id == lotID {
            if lot.bidCount == count { return self }
            if lot.bidCount == count + 1 {
                return BidHistory(
                    lotID: lot.id, count: lot.bidCount, amountsCents: amountsCents + [lot.currentBidCents])
            }
        }
        return BidHistory(lotID: lot.id, count: lot.bidCount, amountsCents: pastBids(lot.id))
    }

    /// `{"amounts": [120000, 125000], "low": "$1,200.00", "high": "$1,250.00", "summary": …}`.
    public var viewJSON: JSON {
        [
            "amounts": .array(amountsCents.map { .int(Int64($0)) }),
            "low": .string(amountsCents.min().map(MoneyFormat.string(cents:)) ?? ""),
            "high": .string(amountsCents.max().map(MoneyFormat.string(cents:)) ?? ""),
            "summary": .string(summary),
        ]
    }
}
