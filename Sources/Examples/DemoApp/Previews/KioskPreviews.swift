import Footlight
import FootlightJSON

/// How every kiosk stage looks, as ``StagePreview``s: each stage's first look, and its
/// busy or failed state, with fixed view documents made by the kiosk's own display
/// types (rows, details, messages), so a preview shows what the Directors would send.
/// `footlight-demo --app previews` serves them; the browser tests compare each with a
/// golden screenshot (`Tests/Previews/`).
public enum KioskPreviews {
    /// Every preview, each name once.
    public static var all: [StagePreview] {
        listings + lot + accounts + profile
    }

    /// The time on the auction clock the previews show: 10 minutes in.
    static let now = Duration.seconds(600)

    /// The catalogue at ``now``: a few bids placed, the first lot closed.
    static let lots: [Lot] = {
        var lots = AuctionCatalogue.lots()
        lots[0] = lots[0].recording(bidOf: lots[0].startingPriceCents, by: "paddle-7").closed()
        lots[2] = lots[2].recording(bidOf: lots[2].startingPriceCents, by: "paddle-3")
            .recording(bidOf: lots[2].startingPriceCents + 10_000, by: "ada@example.com")
        lots[5] = lots[5].recording(bidOf: lots[5].startingPriceCents + 2_500, by: "paddle-9")
        return lots
    }()

    /// The listings in `order`, each lot a `lot-card` component in its row.
    static func listings(
        _ name: String, order: ListingOrder, account: String?, language: KioskLanguage
    ) -> StagePreview {
        let rows = order.sorted(lots).map { LotRow(lot: $0, now: now, language: language) }
        let document: JSONObject = [
            "t": language.strings.listingsPage.viewJSON,
            // The page around it in the same language (the header and the document's `lang`).
            "site": language.strings.sitePage.viewJSON,
            "segments": ListingOrder.allCases.map { SegmentItem(order: $0, selected: $0 == order, language: language) }
                .viewJSON,
            "layout": .string(order.layout),
            "rows": .array(rows.map { ["id": .string($0.id)] }),
            "accountName": account.viewJSON,
            "languages": LanguageChoice.all(selected: language).viewJSON,
        ]
        let cards = rows.map { StagePreview("card", template: "lot-card", document: ["lot": $0.viewJSON], row: $0.id) }
        return StagePreview(name, template: "listings", document: document, components: cards)
    }

    static var listings: [StagePreview] {
        [
            listings("listings", order: .grid, account: nil, language: .english),
            listings("listings-table-signed-in", order: .mostBids, account: "Ada Lovelace", language: .english),
            listings("listings-german", order: .grid, account: nil, language: .german),
        ]
    }

    static func lotDocument(
        _ lot: Lot, account: String?, amount: String = "", amountError: String? = nil, submitting: Bool = false,
        message: BidMessage? = nil, bids: [Int] = []
    ) -> JSONObject {
        let strings = KioskLanguage.english.strings
        let details = LotDetails(lot: lot, now: now, account: account)
        return [
            "t": strings.lotPage.viewJSON,
            "lot": details.viewJSON,
            "amount": .string(amount),
            "amountError": amountError.viewJSON,
            "canSubmit": .bool(!details.closed && !submitting && (account == nil || amountError == nil)),
            "submitting": .bool(submitting),
            "submitTitle": .string(
                account == nil ? strings.signInToBid : submitting ? strings.placingBid : strings.placeBid),
            "message": message.viewJSON,
            "history": BidHistory(lotID: lot.id, count: bids.count, amountsCents: bids).viewJSON,
        ]
    }

    static var lot: [StagePreview] {
        let open = lots[2]
        let bids = [open.startingPriceCents, open.startingPriceCents + 10_000]
        return [
            StagePreview("lot", template: "lot", document: lotDocument(lots[1], account: nil)),
            StagePreview(
                "lot-placing-bid", template: "lot",
                document: lotDocument(
                    open, account: "ada@example.com", amount: "4,000", submitting: true, bids: bids)),
            StagePreview(
                "lot-refused", template: "lot",
                document: lotDocument(
                    open, account: "grace@example.com", amount: "12.345",
                    amountError: MoneyParseError.tooManyDecimals.description,
                    message: BidMessage.refused(BidError.tooLow(minimumCents: open.minimumNextBidCents)), bids: bids)),
            StagePreview(
                "lot-closed", template: "lot",
                document: lotDocument(lots[0], account: nil, bids: [lots[0].startingPriceCents])),
            StagePreview(
                "lot-gone", template: "lot", document: lotDocument(lots[1], account: nil).merging(["lot": .null]) { $1 }
            ),
        ]
    }

    /// The sign-up dialog, with its form (a component) in the state given.
    static func signupDialog(
        _ name: String, email: String = "", password: String = "", emailError: String? = nil,
        passwordError: String? = nil, submitting: Bool = false, message: String? = nil, failed: Bool = false
    ) -> StagePreview {
        let form: JSONObject = [
            "t": KioskStrings.english.signupForm.viewJSON,
            "email": .string(email), "password": .string(password), "emailError": emailError.viewJSON,
            "passwordError": passwordError.viewJSON,
            "canSubmit": .bool(!submitting && !email.isEmpty && emailError == nil && passwordError == nil),
            "submitting": .bool(submitting), "message": message.viewJSON, "failed": .bool(failed),
        ]
        return StagePreview(
            name, template: "signup-dialog",
            document: ["t": KioskStrings.english.signupPage.viewJSON, "signInOffered": true], modal: true,
            components: [StagePreview("form", template: "signup-form", document: form)])
    }

    static func signinDocument(email: String = "", submitting: Bool = false, message: String? = nil) -> JSONObject {
        [
            "t": KioskStrings.english.signinPage.viewJSON,
            "email": .string(email), "password": .string(email.isEmpty ? "" : "password"),
            "canSubmit": .bool(!email.isEmpty && !submitting), "submitting": .bool(submitting),
            "message": message.viewJSON,
        ]
    }

    static var accounts: [StagePreview] {
        let strings = KioskStrings.english
        return [
            signupDialog("signup-dialog"),
            signupDialog(
                "signup-dialog-errors", email: "grace@", password: "short",
                emailError: SignupDirector.emailProblem("grace@"),
                passwordError: SignupDirector.passwordProblem("short")),
            signupDialog(
                "signup-dialog-failed", email: "ada@example.com", password: "correct horse",
                message: strings.signupFailed(strings.accountError(.taken)), failed: true),
            StagePreview("signin", template: "signin", document: signinDocument(), modal: true),
            StagePreview(
                "signin-busy", template: "signin", document: signinDocument(email: "ada@example.com", submitting: true),
                modal: true),
            StagePreview(
                "signin-refused", template: "signin",
                document: signinDocument(
                    email: "ada@example.com", message: strings.signinFailed(strings.accountError(.wrongCredentials))),
                modal: true),
            StagePreview(
                "welcome", template: "welcome",
                document: ["t": strings.welcomePage.viewJSON, "greeting": .string(strings.greeting("Grace"))],
                modal: true),
        ]
    }

    static var profile: [StagePreview] {
        let strings = KioskStrings.english
        return [
            StagePreview(
                "profile", template: "profile",
                document: [
                    "t": strings.profilePage.viewJSON, "name": "Ada Lovelace", "email": "ada@example.com",
                    "website": "example.com/ada", "picture": .null, "uploading": false, "pictureProgress": .null,
                    "pictureProblem": .null,
                ]),
            StagePreview(
                "profile-no-website", template: "profile",
                document: [
                    "t": strings.profilePage.viewJSON, "name": "Grace", "email": "grace@example.com", "website": .null,
                    "picture": .null, "uploading": false, "pictureProgress": .null, "pictureProblem": .null,
                ]),
            StagePreview(
                "profile-uploading", template: "profile",
                document: [
                    "t": strings.profilePage.viewJSON, "name": "Ada Lovelace", "email": "ada@example.com",
                    "website": "example.com/ada", "picture": .null, "uploading": true, "pictureProgress": 40,
                    "pictureProblem": .null,
                ]),
            StagePreview(
                "profile-picture-refused", template: "profile",
                document: [
                    "t": strings.profilePage.viewJSON, "name": "Ada Lovelace", "email": "ada@example.com",
                    "website": "example.com/ada", "picture": .null, "uploading": false, "pictureProgress": .null,
                    "pictureProblem": .string(strings.pictureProblem(.tooLarge(megabytes: 2))),
                ]),
            StagePreview(
                "flight", template: "flight",
                document: [
                    "t": strings.flightPage.viewJSON,
                    "card": Flight.tripToTheAuction.map { FlightCard(flight: $0) }.viewJSON,
                ]),
            StagePreview(
                "flight-unavailable", template: "flight", document: ["t": strings.flightPage.viewJSON, "card": .null]),
            StagePreview(
                "not-found", template: "not-found",
                document: ["t": strings.notFoundPage.viewJSON, "path": "/lots/lot-99"]),
        ]
    }
}
