import Footlight
import FootlightJSON

/// Everything the lot details stage shows about a lot, display-ready.
public struct LotDetails: ViewValue, Equatable, Sendable {
    /// The lot's id.
    public let id: String
    /// "Lot 3".
    public let number: String
    /// The work's title.
    public let title: String
    /// The artist's name.
    public let artist: String
    /// "Oil on canvas, 1968".
    public let medium: String
    /// One or two sentences about the work.
    public let summary: String
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
    /// The least the next bid may be: "$1,275.00".
    public let minimumBid: String
    /// Where the signed-in user stands, or nil: "You have the highest bid.", "You won
    /// this lot.", "Sold for $1,250.00.", "Closed without bids.".
    public let standing: String?

    /// The details of `lot` at `now`, for the signed-in account `account` (nil when
    /// signed out).
    public init(lot: Lot, now: Duration, account: String?) {
        id = lot.id
        number = "Lot \(lot.number)"
        title = lot.title
        artist = lot.artist
        medium = "\(lot.medium), \(lot.year)"
        summary = lot.summary
        image = ArtworkImage(lot: lot)
        currentBid = MoneyFormat.string(cents: lot.currentBidCents)
        bidLabel = lot.bidCount == 0 ? "Starting bid" : "Current bid"
        bidCount = BidCountFormat.string(count: lot.bidCount)
        timeLeft = TimeLeftFormat.string(for: lot, at: now)
        closed = !lot.isOpen(at: now)
        minimumBid = MoneyFormat.string(cents: lot.minimumNextBidCents)
        standing = Self.standing(of: lot, closed: closed, account: account)
    }

    private static func standing(of lot: Lot, closed: Bool, account: String?) -> String? {
        let leading = account != nil && lot.highestBidder == account
        switch (closed, leading) {
        case (false, true): return "You have the highest bid."
        case (false, false): return nil
        case (true, true): return "You won this lot."
        case (true, false):
            return lot.bidCount == 0
                ? "Closed without bids." : "Sold for \(MoneyFormat.string(cents: lot.currentBidCents))."
        }
    }

    public var viewJSON: JSON {
        [
            "id": .string(id), "number": .string(number), "title": .string(title), "artist": .string(artist),
            "medium": .string(medium), "summary": .string(summary), "image": image.viewJSON,
            "currentBid": .string(currentBid), "bidLabel": .string(bidLabel), "bidCount": .string(bidCount),
            "timeLeft": .string(timeLeft), "closed": .bool(closed), "minimumBid": .string(minimumBid),
            "standing": standing.viewJSON,
        ]
    }
}
