/// A lot in the auction, as the auction service holds it: a model value, never put
/// in a view document as is (``LotRow`` and ``LotDetails`` are its display forms).
///
/// Times are durations on the service's ``AuctionClock`` (time since it started);
/// money is in cents.
public struct Lot: Equatable, Sendable, Identifiable {
    /// A stable id, e.g. "lot-3".
    public let id: String
    /// The catalogue number (the order of the printed catalogue).
    public let number: Int
    /// The work's title, e.g. "Harbour at Dusk".
    public let title: String
    /// The artist's name.
    public let artist: String
    /// The medium, e.g. "Oil on canvas".
    public let medium: String
    /// The year the work was made.
    public let year: Int
    /// One or two sentences about the work.
    public let summary: String
    /// What a generated placeholder image of the work looks like.
    public let artwork: Artwork
    /// The opening bid: the least the first bid may be.
    public let startingPriceCents: Int
    /// The highest bid so far, or the starting price while there is none.
    public private(set) var currentBidCents: Int
    /// How many bids were accepted.
    public private(set) var bidCount: Int
    /// The account id of the highest bidder, nil while there is no bid.
    public private(set) var highestBidder: String?
    /// When bidding ends, on the auction clock.
    public let closesAt: Duration
    /// Whether the service has closed bidding (set when ``closesAt`` has passed).
    public private(set) var isClosed: Bool

    /// A lot with no bids yet.
    public init(
        id: String, number: Int, title: String, artist: String, medium: String, year: Int, summary: String,
        artwork: Artwork, startingPriceCents: Int, closesAt: Duration
    ) {
        self.id = id
        self.number = number
        self.title = title
        self.artist = artist
        self.medium = medium
        self.year = year
        self.summary = summary
        self.artwork = artwork
        self.startingPriceCents = startingPriceCents
        self.currentBidCents = startingPriceCents
        self.bidCount = 0
        self.highestBidder = nil
        self.closesAt = closesAt
        self.isClosed = false
    }

    /// This lot after a bid of `amountCents` by `bidder` was accepted (no checks: the
    /// service checks before it records).
    public func recording(bidOf amountCents: Int, by bidder: String) -> Lot {
        var lot = self
        lot.currentBidCents = amountCents
        lot.bidCount += 1
        lot.highestBidder = bidder
        return lot
    }

    /// This lot listed again: no bids, open, closing at `closesAt`.
    public func relisted(closingAt closesAt: Duration) -> Lot {
        Lot(
            id: id, number: number, title: title, artist: artist, medium: medium, year: year, summary: summary,
            artwork: artwork, startingPriceCents: startingPriceCents, closesAt: closesAt)
    }

    /// This lot with bidding closed.
    public func closed() -> Lot {
        var lot = self
        lot.isClosed = true
        return lot
    }

    /// Whether bids are accepted at `now`.
    public func isOpen(at now: Duration) -> Bool {
        !isClosed && now < closesAt
    }

    /// The least the next bid may be: the starting price for the first bid, then the
    /// current bid plus ``minimumIncrement(above:)``.
    public var minimumNextBidCents: Int {
        bidCount == 0 ? startingPriceCents : currentBidCents + Self.minimumIncrement(above: currentBidCents)
    }

    /// How much a bid must exceed `cents` by: $25 under $1,000, $100 under $10,000,
    /// $500 from there.
    public static func minimumIncrement(above cents: Int) -> Int {
        incrementSteps.first { cents < $0.below }?.step ?? incrementAbove
    }

    /// The increments by price band: a bid on a lot whose current bid is under `below`
    /// must exceed it by at least `step` (a ledger that checks bids itself, such as a
    /// Redis script, is given this table).
    static let incrementSteps: [(below: Int, step: Int)] = [(100_000, 2_500), (1_000_000, 10_000)]
    /// The increment from the last band up.
    static let incrementAbove = 50_000

    /// The lot with its listing and bids as a ledger keeps them.
    func with(_ record: LotRecord, wallOffset: Double) -> Lot {
        var lot = relisted(closingAt: .seconds(record.closesAt - wallOffset))
        if record.bidCount > 0 {
            lot.bidCount = record.bidCount
            lot.currentBidCents = record.highCents
            lot.highestBidder = record.highBidder
        }
        lot.isClosed = record.isClosed
        return lot
    }
}

/// What a lot's placeholder image shows: a kind of picture and a hue (0–359).
public struct Artwork: Equatable, Sendable {
    /// The kind of picture.
    public enum Kind: String, Sendable, CaseIterable {
        case seascape, landscape, portrait
        case stillLife = "still-life"
        case abstract, botanical
    }

    /// The kind of picture.
    public let kind: Kind
    /// The dominant hue, in degrees.
    public let hue: Int

    /// An artwork of `kind`; `hue` is taken modulo 360.
    public init(kind: Kind, hue: Int) {
        self.kind = kind
        self.hue = ((hue % 360) + 360) % 360
    }
}
