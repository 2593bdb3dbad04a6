import Footlight
import FootlightJSON

/// One lot in the listings, display-ready: a row of the table or a card of the grid.
public struct LotRow: ViewValue, Equatable, Sendable {
    /// The lot's id (stable: the page keeps the row's DOM node across reorders).
    public let id: String
    /// "Lot 3".
    public let number: String
    /// The work's title.
    public let title: String
    /// The artist's name.
    public let artist: String
    /// The placeholder image.
    public let image: ArtworkImage
    /// "$1,250.00".
    public let currentBid: String
    /// "Current bid", or "Starting bid" while there is none.
    public let bidLabel: String
    /// "No bids", "1 bid", "3 bids".
    public let bidCount: String
    /// "2 h 05 min", "45 s", "Closed".
    public let timeLeft: String
    /// Whether bidding has ended.
    public let closed: Bool

    /// The row for `lot` at `now` (on the auction clock).
    public init(lot: Lot, now: Duration) {
        id = lot.id
        number = "Lot \(lot.number)"
        title = lot.title
        artist = lot.artist
        image = ArtworkImage(lot: lot)
        currentBid = MoneyFormat.string(cents: lot.currentBidCents)
        bidLabel = lot.bidCount == 0 ? "Starting bid" : "Current bid"
        bidCount = BidCountFormat.string(count: lot.bidCount)
        timeLeft = TimeLeftFormat.string(for: lot, at: now)
        closed = !lot.isOpen(at: now)
    }

    public var viewJSON: JSON {
        [
            "id": .string(id), "number": .string(number), "title": .string(title), "artist": .string(artist),
            "image": image.viewJSON, "currentBid": .string(currentBid), "bidLabel": .string(bidLabel),
            "bidCount": .string(bidCount), "timeLeft": .string(timeLeft), "closed": .bool(closed),
        ]
    }
}
