/// The orders the listings offer, as segments of a control, in this order.
public enum ListingOrder: String, CaseIterable, Sendable {
    case grid
    case leastBids = "least-bids"
    case mostBids = "most-bids"
    case highestBid = "highest-bid"
    case lowestBid = "lowest-bid"
    case alphabetical

    /// The segment's label in `language`: "Most bids", "Meiste Gebote".
    public func title(in language: KioskLanguage = .fallback) -> String {
        language.strings.orderTitle(self)
    }

    /// The layout the page uses: "grid" for Grid, "table" for the others.
    public var layout: String { self == .grid ? "grid" : "table" }

    /// The order named by its id ("most-bids") or its label in any language the kiosk
    /// speaks ("Most bids", "Meiste Gebote"), ignoring case; nil for anything else.
    public init?(name: String) {
        let lowered = name.lowercased()
        guard
            let order = Self.allCases.first(where: { order in
                order.rawValue == lowered
                    || KioskLanguage.allCases.contains { order.title(in: $0).lowercased() == lowered }
            })
        else { return nil }
        self = order
    }

    /// `lots` in this order. Ties keep catalogue order (lot number, then id), so the
    /// result is the same whatever order the lots came in.
    public func sorted(_ lots: [Lot]) -> [Lot] {
        lots.sorted { a, b in
            precedes(a, b) ?? Self.ordered((a.number, a.id), (b.number, b.id)) ?? false
        }
    }

    /// Whether `a` goes before `b`, or nil when this order ranks them equal.
    private func precedes(_ a: Lot, _ b: Lot) -> Bool? {
        switch self {
        case .grid: nil
        case .leastBids: Self.ordered(a.bidCount, b.bidCount)
        case .mostBids: Self.ordered(b.bidCount, a.bidCount)
        case .highestBid: Self.ordered(b.currentBidCents, a.currentBidCents)
        case .lowestBid: Self.ordered(a.currentBidCents, b.currentBidCents)
        case .alphabetical:
            Self.ordered(a.title.lowercased(), b.title.lowercased())
                ?? Self.ordered(a.artist.lowercased(), b.artist.lowercased())
        }
    }

    /// Whether `x` comes first, or nil when they are equal.
    private static func ordered<T: Comparable>(_ x: T, _ y: T) -> Bool? {
        x == y ? nil : x < y
    }

    private static func ordered(_ x: (Int, String), _ y: (Int, String)) -> Bool? {
        x == y ? nil : x < y
    }
}
