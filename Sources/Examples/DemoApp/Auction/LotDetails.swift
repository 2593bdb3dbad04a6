import Footlight
import FootlightJSON

/// Everything the lot details stage shows about a lot, display-ready.
public struct LotDetails: ViewValue, Equatable, Sendable, LotSnapshot {
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
    public private(set) var standing: String?

    /// The details of `lot` at `now`, for the signed-in account `account` (nil when
    /// signed out), in `language`.
    public init(lot: Lot, now: Duration, account: String?, language: KioskLanguage = .fallback) {
        let strings = language.strings
        id = lot.id
        number = strings.lotNumber(String(lot.number))
        title = lot.title
        artist = lot.artist
        medium = "\(strings.catalogueText(lot.medium)), \(lot.year)"
        summary = strings.catalogueText(lot.summary)
        image = ArtworkImage(lot: lot, language: language)
        currentBid = MoneyFormat.string(cents: lot.currentBidCents, in: language)
        bidLabel = lot.bidCount == 0 ? strings.startingBid : strings.currentBid
        bidCount = BidCountFormat.string(count: lot.bidCount, in: language)
        timeLeft = TimeLeftFormat.string(for: lot, at: now, in: language)
        closed = !lot.isOpen(at: now)
        minimumBid = MoneyFormat.string(cents: lot.minimumNextBidCents, in: language)
        standing = Self.standing(of: lot, closed: closed, account: account, language: language)
    }

    /// These details for the signed-in account `account` (nil when signed out): all
    /// the rest is the same for every visitor, so sessions share it
    /// (``LotRowFormatter/details(of:at:account:in:)``).
    func seen(by account: String?, on lot: Lot, in language: KioskLanguage) -> LotDetails {
        // Only the highest bidder stands apart; everyone else sees what no account sees.
        guard let account, lot.highestBidder == account else { return self }
        var details = self
        details.standing = Self.standing(of: lot, closed: closed, account: account, language: language)
        return details
    }

    private static func standing(of lot: Lot, closed: Bool, account: String?, language: KioskLanguage) -> String? {
        let strings = language.strings
        let leading = account != nil && lot.highestBidder == account
        switch (closed, leading) {
        case (false, true): return strings.youLead
        case (false, false): return nil
        case (true, true): return strings.youWon
        case (true, false):
            return lot.bidCount == 0
                ? strings.closedWithoutBids
                : strings.soldFor(MoneyFormat.string(cents: lot.currentBidCents, in: language))
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
