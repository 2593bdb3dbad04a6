import DemoApp
import Footlight
import FootlightJSON
import FootlightServer
import FootlightTesting
import Foundation
import Testing

/// The kiosk's scenes in process, wired to a live auction service on a manual clock:
/// every slot change and context command is asserted.
@Suite struct KioskSceneTests {
    let kiosk = KioskFixture(zephyrCents: 10_000)
    var auctionClock: ManualAuctionClock { kiosk.auctionClock }
    var auction: AuctionService { kiosk.auction }
    var services: KioskServices { kiosk.services }

    /// The listings' rows in `order`: their ids (each row's card shows the rest).
    func rows(_ order: ListingOrder) -> JSON {
        .array(order.sorted(auction.lots).map { ["id": .string($0.id)] })
    }

    /// What the card of lot `id` shows now.
    func row(_ id: String) -> LotRow {
        LotRow(lot: auction.lot(id)!, now: auctionClock.now)
    }

    func segments(selected: ListingOrder) -> JSON {
        .array(ListingOrder.allCases.map { SegmentItem(order: $0, selected: $0 == selected).viewJSON })
    }

    func details(_ id: String, account: String?) -> JSON {
        LotDetails(lot: auction.lot(id)!, now: auctionClock.now, account: account).viewJSON
    }

    @Test("Listings: grid first; an order re-sorts and switches to the table; a lot opens pushed at its URL")
    func listings() {
        let tester = SceneTester(KioskApp.entry(services))
        #expect(tester.stageIDs == ["listings"])
        #expect(tester.document("listings")?["layout"] == "grid")
        #expect(tester.document("listings")?["rows"] == rows(.grid))
        #expect(tester.cards(["lot-1", "lot-2"]) == [row("lot-1").viewJSON, row("lot-2").viewJSON])
        #expect(tester.document("listings")?["accountName"] == .null)

        tester.send("order", to: "listings", value: ["id": "alphabetical"])
        tester.expect(
            "listings", ["segments": segments(selected: .alphabetical), "layout": "table", "rows": rows(.alphabetical)])
        #expect(tester.send("order", to: "listings", value: "alphabetical") != nil, "an order is a row reference")

        tester.send("open", to: "listings", value: ["id": "lot-2"])
        // The page's title names the lot, and the bid field takes focus (client commands).
        tester.expectCommands([
            .mount(template: "lot", placement: .push, url: "/lots/lot-2"),
            .run(template: "lot", [.setTitle("Aurora · Footlight Auctions"), .focus("#bid-amount")]),
        ])
        #expect(tester.document("lot-1")?["lot"] == details("lot-2", account: nil))
        #expect(tester.document("lot-1")?["submitTitle"] == "Sign in to bid")
        tester.send("back", to: "lot-1")
        tester.expectCommands([.unmount(template: "lot", placement: .push)])
        tester.send("open", to: "listings", value: ["id": "no-such-lot"])
        tester.expectCommands([])
        tester.finish(allowingTimers: true)
    }

    @Test("Bidding signed out presents the sign-up flow modally; after it the bid goes through, everywhere")
    func signUpThenBid() throws {
        let tester = SceneTester(KioskApp.entry(services), path: "/lots/lot-2")
        #expect(tester.stageIDs == ["listings", "lot-1"])
        tester.send("amount", to: "lot-1", value: "5")
        tester.expect("lot-1", ["amount": "5", "amountError": "Bid at least $500.00."])
        tester.send("submit", to: "lot-1")
        tester.expectCommands([
            .mount(template: "signup-dialog", placement: .modal, url: nil),
            .mountComponent(template: "signup-form", in: "signup-dialog", at: ComponentHost(name: "form")),
        ])
        let form = try #require(tester.component("form", in: "signup-dialog-2"))

        tester.send("email", to: form, value: "grace@example.com")
        tester.expect(form, ["email": "grace@example.com"])
        tester.send("password", to: form, value: "correct horse")
        tester.expect(form, ["password": "correct horse", "canSubmit": true])
        tester.send("submit", to: form)
        tester.expect(form, ["submitting": true, "canSubmit": false])
        tester.advance(by: .milliseconds(300))
        // Signed in at once: the page behind the modal already knows.
        tester.expect("listings", ["accountName": "Grace"])
        tester.expect("lot-1", ["submitTitle": "Place bid", "canSubmit": false])
        tester.expectCommands([
            .unmountComponent(template: "signup-form"),
            .unmount(template: "signup-dialog", placement: .modal),
            .mount(template: "welcome", placement: .modal, url: nil),
        ])
        #expect(tester.document("welcome-3")?["greeting"] == "Welcome aboard, Grace.")
        tester.send("continue", to: "welcome-3")
        // Focus goes back to the bid field (a control, not the whole page) once the flow closed.
        tester.expectCommands([
            .unmount(template: "welcome", placement: .modal), .run(template: "lot", [.focus("#bid-amount")]),
        ])

        // The form is still there; now the bid goes through.
        tester.send("amount", to: "lot-1", value: "500")
        tester.expect("lot-1", ["amount": "500", "amountError": nil, "canSubmit": true])
        tester.send("submit", to: "lot-1")
        tester.expect("lot-1", ["submitting": true, "canSubmit": false, "submitTitle": "Placing bid…"])
        tester.advance(by: .milliseconds(300))
        #expect(auction.bids(onLot: "lot-2").map(\.bidder) == ["grace@example.com"])
        tester.expect(
            "lot-1",
            [
                "submitting": false, "submitTitle": "Place bid", "amount": "",
                "message": ["text": "Your bid of $500.00 is the highest bid.", "error": false],
                "lot": details("lot-2", account: "grace@example.com"),
                "history": BidHistory(lotID: "lot-2", count: 1, amountsCents: [50_000]).viewJSON,
            ])
        // The chart marks the user's own bid: a moment, pushed to the page's hook.
        tester.expectCommands([.run(template: "lot", [.push(["mine": 50_000], toHook: "bid-chart")])])
        #expect(tester.document("lot-1")?["lot"]?["standing"] == "You have the highest bid.")
        // Only the lot's card changes: in the grid a bid moves nothing.
        tester.expectCards([row("lot-2")])
        tester.finish(allowingTimers: true)
    }

    @Test("Another session's bid reaches this session's listings, details and chart (the bids before, from the ledger)")
    func otherSessionsBid() {
        _ = auction.placeBid(lotID: "lot-1", amountCents: 11_000, bidder: "paddle-3")
        let tester = SceneTester(KioskApp.entry(services), path: "/lots/lot-1")
        #expect(tester.document("lot-1")?["history"]?["amounts"] == [11_000])
        let second = auction.lot("lot-1")!.minimumNextBidCents
        #expect((try? auction.placeBid(lotID: "lot-1", amountCents: second, bidder: "paddle-9").get()) != nil)
        tester.settle()
        tester.expectCards([row("lot-1")])
        let shown = MoneyFormat.string(cents: second)
        tester.expect(
            "lot-1",
            [
                "lot": details("lot-1", account: nil),
                "history": [
                    "amounts": [11_000, .int(Int64(second))], "low": "$110.00", "high": .string(shown),
                    "summary": .string("2 bids, from $110.00 to \(shown)."),
                ],
            ])
        #expect(tester.document("lot-1")?["lot"]?["currentBid"] == .string(shown))
        tester.finish(allowingTimers: true)
    }

    /// The profile ("profile-2") opened from the listings, after signing in as Ada in
    /// the modal the first click presents.
    private func signedInProfile() -> SceneTester {
        let tester = SceneTester(KioskApp.entry(services))
        tester.send("profile", to: "listings")
        tester.expectCommands([.mount(template: "signin", placement: .modal, url: nil)])
        tester.send("email", to: "signin-1", value: "ada@example.com")
        tester.expect("signin-1", ["email": "ada@example.com"])
        tester.send("password", to: "signin-1", value: "lovelace1843")
        tester.expect("signin-1", ["password": "lovelace1843", "canSubmit": true])
        tester.send("submit", to: "signin-1")
        tester.expect("signin-1", ["submitting": true, "canSubmit": false])
        tester.advance(by: .milliseconds(300))
        tester.expect("listings", ["accountName": "Ada Lovelace"])
        // Focus goes to the profile's button, which took the place of "Sign in".
        tester.expectCommands([
            .unmount(template: "signin", placement: .modal), .run(template: "listings", [.focus(".account-name")]),
        ])
        tester.send("profile", to: "listings")
        tester.expectCommands([.mount(template: "profile", placement: .push, url: "/profile")])
        return tester
    }

    @Test("Sign in from the listings, then the profile: website, trip, sign out")
    func profile() {
        let tester = signedInProfile()
        #expect(tester.document("profile-2")?["name"] == "Ada Lovelace")
        #expect(tester.document("profile-2")?["website"] == "example.com/ada")
        tester.send("website", to: "profile-2")
        tester.expectCommands([.open(url: "https://example.com/ada")])
        tester.send("trip", to: "profile-2")
        tester.expectCommands([.mount(template: "flight", placement: .push, url: "/profile/trip")])
        #expect(tester.document("flight-3")?["card"]?["duration"] == "3 hours, 10 minutes")
        tester.send("back", to: "flight-3")
        tester.expectCommands([.unmount(template: "flight", placement: .push)])
        tester.send("signOut", to: "profile-2")
        tester.expect("listings", ["accountName": nil])
        tester.expectCommands([.unmount(template: "profile", placement: .push)])
        tester.finish(allowingTimers: true)
    }

    @Test("The profile picture goes up with progress and shows; a text file declared a PNG is refused, saying why")
    func profilePicture() throws {
        let tester = signedInProfile()
        #expect(tester.document("profile-2")?["picture"] == .null)

        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + .init(repeating: 1, count: 99_992)
        #expect(
            tester.upload("picture", to: "profile-2", name: "me.png", type: "image/png", bytes: png, chunk: 40_000)
                == 204)
        let address = try #require(tester.document("profile-2")?["picture"]?.stringValue)
        #expect(address.hasPrefix(AvatarStore.path))
        tester.expect("profile-2", ["picture": .string(address)])
        // Started, two reads reported (40 % and 80 %), then kept: the bar comes and goes.
        tester.expectPatch(
            "profile-2",
            [
                ["op": "replace", "path": "/pictureProgress", "value": 0],
                ["op": "replace", "path": "/uploading", "value": true],
                ["op": "replace", "path": "/pictureProgress", "value": 40],
                ["op": "replace", "path": "/pictureProgress", "value": 80],
                ["op": "replace", "path": "/picture", "value": .string(address)],
                ["op": "replace", "path": "/pictureProgress", "value": nil],
                ["op": "replace", "path": "/uploading", "value": false],
            ])
        let kept = services.avatars.directory + "/" + address.dropFirst(AvatarStore.path.count)
        #expect(FileManager.default.contents(atPath: kept) == Data(png), "the picture is kept whole")

        #expect(
            tester.upload("picture", to: "profile-2", name: "notes.png", type: "image/png", bytes: Array("notes".utf8))
                == 415)
        tester.expect("profile-2", ["pictureProblem": "Choose a PNG, JPEG, GIF or WebP picture."])
        #expect(tester.document("profile-2")?["picture"] == .string(address), "the kept picture stays")
        tester.expectPatch(
            "profile-2",
            [
                ["op": "replace", "path": "/pictureProgress", "value": 0],
                ["op": "replace", "path": "/uploading", "value": true],
                ["op": "replace", "path": "/pictureProgress", "value": nil],
                ["op": "replace", "path": "/uploading", "value": false],
                ["op": "replace", "path": "/pictureProblem", "value": "Choose a PNG, JPEG, GIF or WebP picture."],
            ])
        tester.finish(allowingTimers: true)
    }

    @Test("The sign-in modal offers signing up instead, and back")
    func switching() {
        let tester = SceneTester(KioskApp.entry(services))
        tester.send("signIn", to: "listings")
        tester.expectCommands([.mount(template: "signin", placement: .modal, url: nil)])
        tester.send("signUp", to: "signin-1")
        tester.expectCommands([
            .unmount(template: "signin", placement: .modal),
            .mount(template: "signup-dialog", placement: .modal, url: nil),
            .mountComponent(template: "signup-form", in: "signup-dialog", at: ComponentHost(name: "form")),
        ])
        #expect(tester.document("signup-dialog-2")?["signInOffered"] == true)
        tester.send("signIn", to: "signup-dialog-2")
        tester.expectCommands([
            .unmountComponent(template: "signup-form"),
            .unmount(template: "signup-dialog", placement: .modal),
            .mount(template: "signin", placement: .modal, url: nil),
        ])
        tester.finish(allowingTimers: true)
    }

    @Test("Deep links: a listed lot opens over the listings; anything else shows not-found at that link")
    func deepLinks() {
        #expect(SceneTester(KioskApp.entry(services), path: "/lots/lot-1?from=mail").stageIDs == ["listings", "lot-1"])
        #expect(SceneTester(KioskApp.entry(services), path: "/").stageIDs == ["listings"])
        for link in ["/lots/lot-99", "/lots", "/nowhere/at/all"] {
            let tester = SceneTester(KioskApp.entry(services), path: link)
            #expect(tester.stageIDs == ["listings", "not-found-1"], "\(link)")
            #expect(tester.document("not-found-1")?["path"] == .string(link), "\(link)")
            #expect(tester.document("not-found-1")?["t"] == KioskStrings.english.notFoundPage.viewJSON, "\(link)")
        }
    }

    @Test("A profile link signed out offers signing in, then opens the profile (and the trip it names)")
    func profileLinkSignedOut() {
        for (link, stages) in [("/profile", ["profile"]), ("/profile/trip", ["profile", "flight"])] {
            let tester = SceneTester(KioskApp.entry(services), path: link)
            tester.exhaustivity = .off
            #expect(tester.stageIDs == ["listings", "signin-1"], "\(link)")
            tester.send("email", to: "signin-1", value: "ada@example.com")
            tester.send("password", to: "signin-1", value: "lovelace1843")
            tester.send("submit", to: "signin-1")
            tester.advance(by: .milliseconds(300))
            #expect(tester.stageIDs.dropFirst().map { $0.split(separator: "-").first.map(String.init) ?? $0 } == stages)
            tester.finish(allowingTimers: true)
        }
    }

    @Test("Rebuilt: the order, the lot with its typed amount, the sign-up form with its email; never a password")
    func rebuild() throws {
        let restore = ClientMessage.Restore(stages: [
            .init(template: "listings", placement: .root, values: ["order": ["id": "alphabetical"]]),
            .init(template: "lot", placement: .push, url: "/lots/lot-2", values: ["amount": "600"]),
            .init(
                template: "signup-dialog", placement: .modal,
                values: ["form/email": "grace@example.com", "form/password": "x"]),
            .init(template: "welcome", placement: .modal),
        ])
        let tester = SceneTester(KioskApp.entry(services), path: "/lots/lot-2", restoring: restore)
        #expect(tester.rebuilt == ["listings", "lot-1", "signup-dialog-2", nil])
        #expect(tester.document("listings")?["layout"] == "table")
        #expect(tester.document("listings")?["rows"] == rows(.alphabetical))
        #expect(tester.cards(["lot-2", "lot-1"]) == [row("lot-2").viewJSON, row("lot-1").viewJSON])
        #expect(tester.document("lot-1")?["amount"] == "600")
        let form = try #require(tester.component("form", in: "signup-dialog-2"))
        #expect(tester.document(form)?["email"] == "grace@example.com")
        #expect(tester.document(form)?["password"] == "", "a password is not recoverable")
        #expect(tester.errors.map(\.code) == ["not-recoverable", "not-rebuilt"])
        // The rebuilt dialog works: signing up from it signs the session in.
        tester.send("password", to: form, value: "correct horse")
        tester.expect(form, ["password": "correct horse", "canSubmit": true])
        tester.finish(allowingTimers: true)
    }

    @Test("The flight card scene shows the card, or null when there is no flight")
    func flight() {
        let tester = SceneTester(FlightScene(flight: nil))
        #expect(tester.document("flight")?["card"] == .null)
        #expect(
            SceneTester(FlightScene()).document("flight")?["card"]
                == Flight.tripToTheAuction.map { FlightCard(flight: $0).viewJSON } ?? .null)
    }
}
