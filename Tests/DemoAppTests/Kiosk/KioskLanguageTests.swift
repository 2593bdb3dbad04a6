import DemoApp
import Footlight
import FootlightJSON
import FootlightTesting
import Foundation
import Testing

/// The kiosk in the visitor's language: the browser's choice at first, the listings'
/// switch after; every stage's texts, money, counts and dates follow it.
@Suite struct KioskLanguageTests {
    let kiosk = KioskFixture(zephyrCents: 125_050)
    var auctionClock: ManualAuctionClock { kiosk.auctionClock }
    var auction: AuctionService { kiosk.auction }
    var services: KioskServices { kiosk.services }

    func german(_ path: String = "/") -> SceneTester {
        SceneTester(
            KioskApp.entry(services), path: path,
            request: SessionRequest(headers: ["accept-language": "de-AT,de;q=0.9,en;q=0.5"]))
    }

    /// The listings' rows (in the grid's order), as their cards show them in `language`.
    func rows(_ language: KioskLanguage) -> [LotRow] {
        auction.lots.map { LotRow(lot: $0, now: auctionClock.now, language: language) }
    }

    @Test(
        "A session starts in the language its browser asks for; English when it asks for none the kiosk speaks",
        arguments: [
            ("de-DE,de;q=0.9", KioskLanguage.german), ("de-CH", .german), ("en-GB,en;q=0.9,de;q=0.8", .english),
            ("fr-FR,fr;q=0.9", .english), ("", .english), ("fr, de;q=0.1", .german),
        ])
    func fromTheBrowser(header: String, expected: KioskLanguage) {
        #expect(KioskLanguage.preferred(by: SessionRequest(headers: ["accept-language": header])) == expected)
        let tester = SceneTester(
            KioskApp.entry(services), request: SessionRequest(headers: ["accept-language": header]))
        #expect(tester.document("listings")?["t"] == expected.strings.listingsPage.viewJSON)
        #expect(tester.cards(auction.lots.map(\.id)) == rows(expected).map(\.viewJSON))
    }

    @Test("German listings: texts, order labels, money and counts as German writes them; the switch says which")
    func germanListings() throws {
        let tester = german()
        let listings = try #require(tester.document("listings"))
        #expect(listings["t"]?["title"] == "Angebotene Lose")
        #expect(listings["t"]?["lang"] == "de")
        #expect(listings["segments"]?.arrayValue?.compactMap { $0["title"]?.stringValue }.first == "Raster")
        let first = try #require(tester.cards(["lot-1"]).first ?? nil)
        #expect(first["number"] == "Los 1")
        #expect(first["currentBid"] == "1.250,50\u{A0}$")
        #expect(first["bidLabel"] == "Startgebot")
        #expect(first["bidCount"] == "Keine Gebote")
        #expect(first["image"]?["alt"]?.stringValue?.contains(" von ") == true)
        #expect(
            listings["languages"]
                == [
                    ["id": "en", "name": "English", "lang": "en", "pressed": "false"],
                    ["id": "de", "name": "Deutsch", "lang": "de", "pressed": "true"],
                ])
        tester.finish(allowingTimers: true)
    }

    @Test("The switch changes the listings at once, and the title; a language the kiosk does not speak changes nothing")
    func switching() {
        let tester = SceneTester(KioskApp.entry(services))
        #expect(tester.document("listings")?["t"]?["title"] == "Lots on offer")
        tester.send("language", to: "listings", value: ["id": "de"])
        tester.expect(
            "listings",
            [
                "t": KioskStrings.german.listingsPage.viewJSON,
                "site": KioskStrings.german.sitePage.viewJSON,
                "segments": .array(
                    ListingOrder.allCases.map {
                        SegmentItem(order: $0, selected: $0 == .grid, language: .german).viewJSON
                    }),
                "languages": .array(LanguageChoice.all(selected: .german).map(\.viewJSON)),
            ])
        tester.expectCards(rows(.german))
        tester.expectCommands([.run(template: "listings", [.setTitle("Footlight Auktionen")])])
        #expect(tester.send("language", to: "listings", value: ["id": "fr"]) == nil)
        #expect(tester.send("language", to: "listings", value: ["id": "DE"]) == nil)
        tester.expectCommands([])
        tester.send("language", to: "listings", value: ["id": "en"])
        tester.expect(
            "listings",
            [
                "t": KioskStrings.english.listingsPage.viewJSON,
                "site": KioskStrings.english.sitePage.viewJSON,
                "segments": .array(
                    ListingOrder.allCases.map { SegmentItem(order: $0, selected: $0 == .grid).viewJSON }),
                "languages": .array(LanguageChoice.all(selected: .english).map(\.viewJSON)),
            ])
        tester.expectCards(rows(.english))
        tester.expectCommands([.run(template: "listings", [.setTitle("Footlight Auctions")])])
        tester.finish(allowingTimers: true)
    }

    @Test("A German lot page: its texts, and amounts read and checked the German way")
    func germanLot() throws {
        let tester = german("/lots/lot-1")
        #expect(tester.stageIDs == ["listings", "lot-1"])
        let lot = try #require(tester.document("lot-1"))
        #expect(lot["t"] == KioskStrings.german.lotPage.viewJSON)
        #expect(lot["submitTitle"] == "Zum Bieten anmelden")
        #expect(lot["lot"]?["minimumBid"] == "1.250,50\u{A0}$")
        #expect(lot["history"]?["summary"] == "Noch keine Gebote.")
        tester.send("amount", to: "lot-1", value: "1.200")
        tester.expect("lot-1", ["amount": "1.200", "amountError": "Bieten Sie mindestens 1.250,50\u{A0}$."])
        tester.send("amount", to: "lot-1", value: "1.250,5.0")
        tester.expect(
            "lot-1",
            ["amount": "1.250,5.0", "amountError": "Geben Sie einen Betrag in Dollar ein, etwa 1.250 oder 1.250,00."])
        tester.send("amount", to: "lot-1", value: "1.250,505")
        tester.expect(
            "lot-1", ["amount": "1.250,505", "amountError": "Höchstens zwei Nachkommastellen (Cent)."])
        tester.send("amount", to: "lot-1", value: "1250.50")  // a keypad for another region
        tester.expect("lot-1", ["amount": "1250.50", "amountError": nil])
        tester.send("amount", to: "lot-1", value: "1.250,50 $")
        tester.expect("lot-1", ["amount": "1.250,50 $"])
        #expect(tester.document("lot-1")?["amountError"] == .null)
        tester.finish(allowingTimers: true)
    }

    @Test("Signed in in German: the sign-in dialog, its refusal, the profile and the trip's card in German")
    func germanAccount() throws {
        let tester = german()
        tester.send("profile", to: "listings")
        tester.expectCommands([.mount(template: "signin", placement: .modal, url: nil)])
        #expect(tester.document("signin-1")?["t"] == KioskStrings.german.signinPage.viewJSON)
        tester.send("email", to: "signin-1", value: "ada@example.com")
        tester.expect("signin-1", ["email": "ada@example.com"])
        tester.send("password", to: "signin-1", value: "wrong password")
        tester.expect("signin-1", ["password": "wrong password", "canSubmit": true])
        tester.send("submit", to: "signin-1")
        tester.expect("signin-1", ["submitting": true, "canSubmit": false])
        tester.advance(by: .milliseconds(300))
        tester.expect(
            "signin-1",
            [
                "submitting": false, "canSubmit": true,
                "message": "Anmeldung fehlgeschlagen: E-Mail oder Passwort stimmt nicht.",
            ])
        tester.send("password", to: "signin-1", value: "lovelace1843")
        tester.expect("signin-1", ["password": "lovelace1843", "message": nil])
        tester.send("submit", to: "signin-1")
        tester.expect("signin-1", ["submitting": true, "canSubmit": false])
        tester.advance(by: .milliseconds(300))
        tester.expect("listings", ["accountName": "Ada Lovelace"])
        tester.expectCommands([
            .unmount(template: "signin", placement: .modal), .run(template: "listings", [.focus(".account-name")]),
        ])

        tester.send("profile", to: "listings")
        tester.expectCommands([.mount(template: "profile", placement: .push, url: "/profile")])
        #expect(tester.document("profile-2")?["t"] == KioskStrings.german.profilePage.viewJSON)
        tester.send("trip", to: "profile-2")
        tester.expectCommands([.mount(template: "flight", placement: .push, url: "/profile/trip")])
        let card = try #require(tester.document("flight-3")?["card"])
        #expect(tester.document("flight-3")?["t"] == KioskStrings.german.flightPage.viewJSON)
        #expect(card == FlightCard(flight: .tripToTheAuction!, language: .german).viewJSON)
        #expect(card["duration"] == "3 Stunden, 10 Minuten")
        #expect(card["departure"]?["day"]?.stringValue?.hasSuffix("Dez.") == true)
        tester.finish(allowingTimers: true)
    }

    @Test("The sign-up dialog and the welcome in German; a link that names nothing, too")
    func germanSignupAndNotFound() throws {
        let tester = german("/lots/lot-2")
        tester.send("submit", to: "lot-1")
        tester.expectCommands([
            .mount(template: "signup-dialog", placement: .modal, url: nil),
            .mountComponent(template: "signup-form", in: "signup-dialog", at: ComponentHost(name: "form")),
        ])
        #expect(tester.document("signup-dialog-2")?["t"] == KioskStrings.german.signupPage.viewJSON)
        let form = try #require(tester.component("form", in: "signup-dialog-2"))
        #expect(tester.document(form)?["t"] == KioskStrings.german.signupForm.viewJSON)
        tester.send("email", to: form, value: "grace@")
        tester.expect(
            form,
            ["email": "grace@", "emailError": "Geben Sie eine E-Mail-Adresse wie name@example.com ein."])
        tester.send("email", to: form, value: "grace@example.com")
        tester.expect(form, ["email": "grace@example.com", "emailError": nil])
        tester.send("password", to: form, value: "short")
        tester.expect(
            form, ["password": "short", "passwordError": "Mindestens 8 Zeichen (bisher 5)."])
        tester.send("password", to: form, value: "correct horse")
        tester.expect(form, ["password": "correct horse", "passwordError": nil, "canSubmit": true])
        tester.send("submit", to: form)
        tester.expect(form, ["submitting": true, "canSubmit": false])
        tester.advance(by: .milliseconds(300))
        tester.expect("listings", ["accountName": "Grace"])
        tester.expect("lot-1", ["submitTitle": "Gebot abgeben", "canSubmit": false])
        tester.expectCommands([
            .unmountComponent(template: "signup-form"),
            .unmount(template: "signup-dialog", placement: .modal),
            .mount(template: "welcome", placement: .modal, url: nil),
        ])
        #expect(tester.document("welcome-3")?["greeting"] == "Willkommen an Bord, Grace.")
        #expect(tester.document("welcome-3")?["t"] == KioskStrings.german.welcomePage.viewJSON)
        tester.finish(allowingTimers: true)

        let lost = german("/nowhere")
        #expect(lost.document("not-found-1")?["t"] == KioskStrings.german.notFoundPage.viewJSON)
        lost.finish(allowingTimers: true)
    }

    @Test("Every text a kiosk template names (t.…) is in every language, and the languages name the same texts")
    func templatesAndTables() throws {
        let page = try String(contentsOfFile: Self.packageRoot + "/Public/index.html", encoding: .utf8)
        let pages: [(stage: String, text: KeyPath<KioskStrings, PageText>)] = [
            ("listings", \.listingsPage), ("lot", \.lotPage), ("signup-dialog", \.signupPage),
            ("signup-form", \.signupForm),
            ("signin", \.signinPage), ("welcome", \.welcomePage), ("profile", \.profilePage),
            ("flight", \.flightPage), ("not-found", \.notFoundPage),
        ]
        for (stage, text) in pages {
            let template = try #require(Self.template(stage, in: page), "no template \(stage)")
            let named = Self.textKeys(in: template)
            #expect(!named.isEmpty, "\(stage) names no texts")
            #expect(named.contains("lang"), "\(stage) sets no lang attribute")
            for language in KioskLanguage.allCases {
                let table = language.strings[keyPath: text]
                #expect(named == Set(table.texts.keys), "\(stage) in \(language)")
                #expect(table.texts.values.allSatisfy { !$0.isEmpty }, "\(stage) in \(language)")
            }
        }
    }

    @Test("The page around the stages follows the language: each full page hands the site's texts to its hook")
    func siteTexts() throws {
        let page = try String(contentsOfFile: Self.packageRoot + "/Public/index.html", encoding: .utf8)
        for stage in ["listings", "lot", "profile", "flight"] {
            let template = try #require(Self.template(stage, in: page), "no template \(stage)")
            #expect(template.contains(#"data-hook="site-text:site""#), "\(stage) does not hand its site texts on")
        }
        #expect(page.contains(#"<script src="/site-text.js"></script>"#))
        // The texts the hook fills (the elements naming one), and the language, in every language.
        let named = Self.siteTextKeys(in: page)
        #expect(named == ["name", "tagline", "skip"])
        for language in KioskLanguage.allCases {
            let texts = language.strings.sitePage.texts
            #expect(Set(texts.keys) == named.union(["lang"]), "\(language)")
            #expect(texts.values.allSatisfy { !$0.isEmpty }, "\(language)")
        }
        // A first visit shows them before any stage, from the page's own copy of them (site-texts),
        // in every language but English (the page's own texts).
        let start = try #require(page.range(of: #"<script type="application/json" id="site-texts">"#))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        let copies = try JSON.parse(String(page[start.upperBound..<end.lowerBound]))
        for language in KioskLanguage.allCases where language != .english {
            #expect(copies[language.rawValue] == language.strings.sitePage.viewJSON, "\(language)")
        }
        #expect(copies.objectValue?.count == KioskLanguage.allCases.count - 1)
        // Each full page binds them (the switch changing them is in `switching`).
        #expect(german().document("listings")?["site"] == KioskStrings.german.sitePage.viewJSON)
        #expect(german("/lots/lot-1").document("lot-1")?["site"] == KioskStrings.german.sitePage.viewJSON)
    }

    @Test("A German lot page describes the work in German: every catalogue lot's medium and summary")
    func germanCatalogue() {
        for lot in AuctionCatalogue.lots() {
            let german = LotDetails(lot: lot, now: .zero, account: nil, language: .german)
            let english = LotDetails(lot: lot, now: .zero, account: nil, language: .english)
            #expect(english.medium == "\(lot.medium), \(lot.year)")
            #expect(english.summary == lot.summary)
            #expect(KioskStrings.german.catalogue[lot.medium] != nil, "no German for \(lot.medium)")
            #expect(KioskStrings.german.catalogue[lot.summary] != nil, "no German for \(lot.id)'s summary")
            #expect(german.medium == "\(KioskStrings.german.catalogueText(lot.medium)), \(lot.year)")
            #expect(german.summary != lot.summary)
            #expect(german.title == lot.title)
        }
        #expect(
            LotDetails(lot: AuctionCatalogue.lots()[5], now: .zero, account: nil, language: .german).medium
                == "Holzschnitt, 1962")
        // A text the catalogue does not have stays as it is.
        #expect(KioskStrings.german.catalogueText("Tempera on panel") == "Tempera on panel")
    }

    /// The keys the page's elements name as `data-site-text="key"`.
    static func siteTextKeys(in page: String) -> Set<String> {
        let marker = #"data-site-text=""#
        var keys = Set<String>()
        var rest = page[...]
        while let found = rest.range(of: marker) {
            rest = rest[found.upperBound...]
            keys.insert(String(rest.prefix { $0 != "\"" }))
        }
        return keys
    }

    /// The package's directory (this file is in Tests/DemoAppTests/Kiosk).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The text of `<template data-stage="name">` up to the next stage's template.
    static func template(_ name: String, in page: String) -> Substring? {
        guard let start = page.range(of: "<template data-stage=\"\(name)\">") else { return nil }
        let rest = page[start.upperBound...]
        let end = rest.range(of: "<template data-stage=")?.lowerBound ?? rest.endIndex
        return rest[..<end]
    }

    /// The keys named as `t.key` in a template's bindings.
    static func textKeys(in template: Substring) -> Set<String> {
        var keys = Set<String>()
        var rest = template[...]
        while let found = rest.range(of: "t.") {
            let before = found.lowerBound == rest.startIndex ? nil : rest[rest.index(before: found.lowerBound)]
            let key = rest[found.upperBound...].prefix { $0.isLetter || $0.isNumber }
            if let before, "\":, ".contains(before), !key.isEmpty { keys.insert(String(key)) }
            rest = rest[found.upperBound...]
        }
        return keys
    }
}
