/// Every text the kiosk shows, in one language: the fixed texts of each stage's
/// template (``PageText``, bound to the stage's slot `t`) and the sentences its
/// Directors and formatters make. Money and bid counts reach these functions already
/// formatted for the language (``MoneyFormat``, ``BidCountFormat``); the small numbers
/// of a field's length and a flight's hours and minutes come as `Int`s, written as they
/// are, and pick their singular or plural here.
///
/// Each language is one value of this type (``english``, ``german``): a text missing
/// from a language does not compile, and a test checks that every `t.` key a template
/// names is in every language's page texts.
public struct KioskStrings: Sendable {
    // MARK: Pages

    /// The page around the stages: the header's name ("Auctions") and tagline, and the
    /// skip link. Every full page binds it to its slot `site`, where the `site-text` hook
    /// (`Public/site-text.js`) takes it, with the document's language.
    public let sitePage: PageText
    /// The listings' template: heading, order control, table head, language switch.
    public let listingsPage: PageText
    /// The lot page's template.
    public let lotPage: PageText
    /// The sign-up frame's templates (the dialog's title and its offer to sign in).
    public let signupPage: PageText
    /// The sign-up form's template (a component of the frame).
    public let signupForm: PageText
    /// The sign-in dialog's template.
    public let signinPage: PageText
    /// The welcome dialog's template.
    public let welcomePage: PageText
    /// The profile's template.
    public let profilePage: PageText
    /// The flight card's template.
    public let flightPage: PageText
    /// The not-found page's template.
    public let notFoundPage: PageText

    // MARK: Listings and lots

    /// The site's name, for the page's title: "Footlight Auctions".
    public let siteName: String
    /// The page's title while a lot is open: "Harbour at Dusk · Footlight Auctions".
    public let lotPageTitle: @Sendable (_ title: String) -> String
    /// A listing order's label: "Most bids".
    public let orderTitle: @Sendable (ListingOrder) -> String
    /// "Lot 3".
    public let lotNumber: @Sendable (_ number: String) -> String
    /// The bid label of a lot with no bids: "Starting bid".
    public let startingBid: String
    /// The bid label of a lot with bids: "Current bid".
    public let currentBid: String
    /// "No bids", "1 bid", "1,204 bids" (`digits` is `count` formatted).
    public let bidCount: @Sendable (_ count: Int, _ digits: String) -> String
    /// A kind of picture: "seascape", "still life".
    public let artworkKind: @Sendable (Artwork.Kind) -> String
    /// A placeholder image's alternative text: "Harbour at Dusk by Inès Moreau (seascape)".
    public let artworkAlt: @Sendable (_ title: String, _ artist: String, _ kind: String) -> String
    /// The time left once there is none: "Closed".
    public let closed: String
    /// The units of the time left: days, hours, minutes, seconds ("d", "h", "min", "s").
    public let timeUnits: (day: String, hour: String, minute: String, second: String)

    // MARK: Bidding

    /// "You have the highest bid."
    public let youLead: String
    /// "You won this lot."
    public let youWon: String
    /// "Closed without bids."
    public let closedWithoutBids: String
    /// "Sold for $1,250.00."
    public let soldFor: @Sendable (_ amount: String) -> String
    /// The bid button: "Place bid".
    public let placeBid: String
    /// The bid button while a bid is in progress: "Placing bid…".
    public let placingBid: String
    /// The bid button while signed out: "Sign in to bid".
    public let signInToBid: String
    /// "Bid at least $1,275.00."
    public let bidAtLeast: @Sendable (_ amount: String) -> String
    /// Typed text that is not an amount: "Enter an amount in dollars, like 1,250 or 1,250.00."
    public let notAnAmount: String
    /// "Use at most two decimal places (cents)."
    public let tooManyDecimals: String
    /// "Enter at most $10,000,000.00."
    public let amountTooLarge: @Sendable (_ maximum: String) -> String
    /// "Your bid of $1,250.00 is the highest bid."
    public let bidAccepted: @Sendable (_ amount: String) -> String
    /// "You were outbid: the highest bid is now $1,300.00 (yours was $1,250.00)."
    public let outbid: @Sendable (_ highest: String, _ yours: String) -> String
    /// "Bid not placed: bidding on this lot has closed."
    public let bidRefused: @Sendable (_ reason: String) -> String
    /// Why the auction refused a bid (nil: an unknown error), to follow ``bidRefused``.
    public let bidError: @Sendable (BidError?, _ minimum: String?) -> String
    /// The chart's caption with no bids: "No bids yet."
    public let noBidsYet: String
    /// The chart's caption with one bid: "1 bid: $1,200.00."
    public let oneBid: @Sendable (_ amount: String) -> String
    /// The chart's caption: "3 bids, from $1,200.00 to $1,300.00." and, when the chart
    /// shows fewer than all, " (the last 50 shown)".
    public let bidRange: @Sendable (_ count: String, _ first: String, _ last: String, _ shown: Int?) -> String

    // MARK: Accounts

    /// The profile's name while signed out: "Signed out".
    public let signedOut: String
    /// Why the picture chosen for the profile was not kept: "Choose a picture of at most 2 MB."
    public let pictureProblem: @Sendable (PictureProblem) -> String
    /// "Use at most 254 characters (300 so far)."
    public let tooManyCharacters: @Sendable (_ maximum: Int, _ count: Int) -> String
    /// "Use at least 8 characters (5 so far)."
    public let tooFewCharacters: @Sendable (_ minimum: Int, _ count: Int) -> String
    /// "Enter an email address like name@example.com."
    public let notAnEmail: String
    /// After a sign-up: "Welcome, Ada!"
    public let welcome: @Sendable (_ name: String) -> String
    /// "Sign-up failed: that address already has an account."
    public let signupFailed: @Sendable (_ reason: String) -> String
    /// "Sign-in failed: the email or the password is not right."
    public let signinFailed: @Sendable (_ reason: String) -> String
    /// Why the accounts refused (nil: an unknown error): "that address already has an account".
    public let accountError: @Sendable (AccountError?) -> String
    /// The welcome dialog's heading: "Welcome aboard, Ada."
    public let greeting: @Sendable (_ name: String) -> String

    // MARK: The trip

    /// A flight's duration: "3 hours, 10 minutes", "2 hours", "45 minutes".
    public let flightDuration: @Sendable (_ hours: Int, _ minutes: Int) -> String
    /// Cities in this language, by their English names: "Vienna" → "Wien".
    public let cities: [String: String]

    /// `city` (its English name) in this language: as given when not in ``cities``.
    public func cityName(_ city: String) -> String {
        cities[city] ?? city
    }

    // MARK: The catalogue

    /// The catalogue's descriptions of its works (a lot's medium and summary) in this
    /// language, by the catalogue's own (English) text. Titles and artists' names stay
    /// as they are, as in a printed catalogue.
    public let catalogue: [String: String]

    /// `text` from the catalogue in this language: as the catalogue has it when it is
    /// not in ``catalogue`` (a lot of another catalogue, or English).
    public func catalogueText(_ text: String) -> String {
        catalogue[text] ?? text
    }
}
