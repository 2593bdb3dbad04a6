extension KioskStrings {
    /// The kiosk in English.
    public static let english = KioskStrings(
        sitePage: PageText(
            .english,
            [
                "name": "Auctions",
                "tagline": "Every view on this page lives on a Swift server; the page only binds what it sends.",
                "skip": "Skip to content",
            ]),
        listingsPage: PageText(
            .english,
            [
                "title": "Lots on offer", "hint": "Bids from every visitor arrive as they are placed.",
                "profileOf": "Profile of", "signIn": "Sign in", "orderLabel": "Order of the lots",
                "languageLabel": "Language", "headLot": "Lot", "headWork": "Work", "headBid": "Bid",
                "headBids": "Bids", "headTimeLeft": "Time left",
            ]),
        lotPage: PageText(
            .english,
            [
                "allLots": "All lots", "noLongerListed": "This lot is no longer listed.", "bids": "Bids",
                "timeLeft": "Time left", "yourBid": "Your bid", "atLeast": "At least",
                "waiting": "Waiting for the auctioneer…",
            ]),
        signupPage: PageText(
            .english,
            [
                "title": "Create an account to bid", "haveAccount": "Have an account?",
                "signInInstead": "Sign in instead",
            ]),
        signupForm: PageText(
            .english, ["email": "Email", "password": "Password", "submit": "Sign up", "submitting": "Signing up…"]),
        signinPage: PageText(
            .english,
            [
                "title": "Sign in", "email": "Email", "password": "Password", "submit": "Sign in",
                "submitting": "Signing in…", "newHere": "New here?", "createAccount": "Create an account",
            ]),
        welcomePage: PageText(
            .english,
            [
                "body": "You can bid on any open lot now. Your profile is at the top of the listings.",
                "continue": "Continue",
            ]),
        profilePage: PageText(
            .english,
            [
                "allLots": "All lots", "email": "Email", "website": "Website", "trip": "Your trip to the auction",
                "signOut": "Sign out", "picture": "Your picture", "choosePicture": "Choose a picture",
                "uploading": "Uploading your picture", "cancelUpload": "Cancel",
            ]),
        flightPage: PageText(
            .english,
            [
                "profile": "Profile", "title": "Your trip to the auction",
                "unavailable": "The flight cannot be shown on this server.", "departs": "Departs",
                "arrives": "Arrives",
            ]),
        notFoundPage: PageText(
            .english,
            [
                "allLots": "All lots", "title": "Nothing here", "noPage": "There is no page at",
                "hint": "It may have been a lot that is no longer listed.",
            ]),
        siteName: "Footlight Auctions",
        lotPageTitle: { "\($0) · Footlight Auctions" },
        orderTitle: { order in
            switch order {
            case .grid: "Grid"
            case .leastBids: "Least bids"
            case .mostBids: "Most bids"
            case .highestBid: "Highest bid"
            case .lowestBid: "Lowest bid"
            case .alphabetical: "Alphabetical"
            }
        },
        lotNumber: { "Lot \($0)" },
        startingBid: "Starting bid",
        currentBid: "Current bid",
        bidCount: { count, digits in
            switch count {
            case ..<1: "No bids"
            case 1: "1 bid"
            default: "\(digits) bids"
            }
        },
        artworkKind: { kind in
            switch kind {
            case .seascape: "seascape"
            case .landscape: "landscape"
            case .portrait: "portrait"
            case .stillLife: "still life"
            case .abstract: "abstract"
            case .botanical: "botanical"
            }
        },
        artworkAlt: { title, artist, kind in "\(title) by \(artist) (\(kind))" },
        closed: "Closed",
        timeUnits: (day: "d", hour: "h", minute: "min", second: "s"),
        youLead: "You have the highest bid.",
        youWon: "You won this lot.",
        closedWithoutBids: "Closed without bids.",
        soldFor: { "Sold for \($0)." },
        placeBid: "Place bid",
        placingBid: "Placing bid…",
        signInToBid: "Sign in to bid",
        bidAtLeast: { "Bid at least \($0)." },
        notAnAmount: "Enter an amount in dollars, like 1,250 or 1,250.00.",
        tooManyDecimals: "Use at most two decimal places (cents).",
        amountTooLarge: { "Enter at most \($0)." },
        bidAccepted: { "Your bid of \($0) is the highest bid." },
        outbid: { highest, yours in "You were outbid: the highest bid is now \(highest) (yours was \(yours))." },
        bidRefused: { "Bid not placed: \($0)" },
        bidError: { error, minimum in
            switch error {
            case .tooLow?: "someone bid first. The least you can bid now is \(minimum ?? "more")."
            case .lotClosed?: "bidding on this lot has closed."
            case .unknownLot?: "this lot is no longer listed."
            case .missingBidder?: "please sign in again."
            case .notRecorded?: "the auction could not record it. Please try again."
            case nil: "please try again."
            }
        },
        noBidsYet: "No bids yet.",
        oneBid: { "1 bid: \($0)." },
        bidRange: { count, first, last, shown in
            "\(count) bids, from \(first) to \(last)\(shown.map { " (the last \($0) shown)" } ?? "")."
        },
        signedOut: "Signed out",
        pictureProblem: { problem in
            switch problem {
            case .tooLarge(let megabytes): "Choose a picture of at most \(megabytes) MB."
            case .notAPicture: "Choose a PNG, JPEG, GIF or WebP picture."
            case .notKept: "The picture could not be kept. Try again."
            }
        },
        tooManyCharacters: { maximum, count in "Use at most \(maximum) characters (\(count) so far)." },
        tooFewCharacters: { minimum, count in "Use at least \(minimum) characters (\(count) so far)." },
        notAnEmail: "Enter an email address like name@example.com.",
        welcome: { "Welcome, \($0)!" },
        signupFailed: { "Sign-up failed: \($0)." },
        signinFailed: { "Sign-in failed: \($0)." },
        accountError: { error in
            switch error?.reason {
            case .taken?: "that address already has an account"
            case .wrongCredentials?: "the email or the password is not right"
            case .unavailable?: "accounts are not available right now; please try again"
            case .busy?: "the kiosk is busy; please try again in a moment"
            case .full?: "the kiosk is full, sorry"
            case .addressTooLong?: "the address is too long"
            case .passwordTooLong?: "the password is too long"
            case nil: "please try again"
            }
        },
        greeting: { "Welcome aboard, \($0)." },
        flightDuration: { hours, minutes in
            let hoursText = "\(hours) \(hours == 1 ? "hour" : "hours")"
            let minutesText = "\(minutes) \(minutes == 1 ? "minute" : "minutes")"
            return switch (hours, minutes) {
            case (0, _): minutesText
            case (_, 0): hoursText
            default: "\(hoursText), \(minutesText)"
            }
        },
        // The catalogue is written in English.
        cities: [:],
        catalogue: [:]
    )
}
