import Footlight
import FootlightJSON

/// One lot in the listings, display-ready: a row of the table or a card of the grid.
///
/// The row builds its view JSON once, when it is made: a row shared by many sessions'
/// listings (``LotRowFormatter``) then puts the same JSON storage in every view
/// document, and an unchanged row compares without looking inside it.
public struct LotRow: ViewValue, Identifiable, Equatable, Sendable, LotSnapshot {
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
    /// The row as it appears in the view document, made from the members above.
    public let viewJSON: JSON

    /// The row for `lot` at `now` (on the auction clock), in `language`.
    public init(lot: Lot, now: Duration, language: KioskLanguage = .fallback) {
        let strings = language.strings
        id = lot.id
        number = strings.lotNumber(String(lot.number))
        title = lot.title
        artist = lot.artist
        image = ArtworkImage(lot: lot, language: language)
        currentBid = MoneyFormat.string(cents: lot.currentBidCents, in: language)
        bidLabel = lot.bidCount == 0 ? strings.startingBid : strings.currentBid
        bidCount = BidCountFormat.string(count: lot.bidCount, in: language)
        timeLeft = TimeLeftFormat.string(for: lot, at: now, in: language)
        closed = !lot.isOpen(at: now)
        viewJSON = [
            "id": .string(id), "number": .string(number), "title": .string(title), "artist": .string(artist),
            "image": image.viewJSON, "currentBid": .string(currentBid), "bidLabel": .string(bidLabel),
            "bidCount": .string(bidCount), "timeLeft": .string(timeLeft), "closed": .bool(closed),
        ]
    }

    /// Rows are equal when they show the same text (``viewJSON`` follows from it).
    public static func == (lhs: LotRow, rhs: LotRow) -> Bool {
        lhs.id == rhs.id && lhs.number == rhs.number && lhs.title == rhs.title && lhs.artist == rhs.artist
            && lhs.image == rhs.image && lhs.currentBid == rhs.currentBid && lhs.bidLabel == rhs.bidLabel
            && lhs.bidCount == rhs.bidCount && lhs.timeLeft == rhs.timeLeft && lhs.closed == rhs.closed
    }
}
