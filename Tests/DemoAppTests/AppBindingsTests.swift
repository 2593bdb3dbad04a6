import DemoApp
import Footlight
import FootlightServer
import FootlightTesting
import Foundation
import Gallery
import Testing
import TodoMVC

/// The examples' scenes bind exactly what their pages' templates name, and the other
/// way round (the Bindings article's "Checking bindings"); a typo put in each page is
/// found, so the check is not empty.
@Suite struct AppBindingsTests {
    static let galleryPaths = ["/", "/lots/lot-1", "/tallies", "/entries", "/values", "/tasks", "/notes/1"]

    /// The kiosk's stages at each address and with each dialog open, signed out and in.
    func kioskStages() throws -> [StageBindings] {
        let kiosk = KioskFixture(zephyrCents: 10_000)
        // Each address (a lot, a link that names nothing)…
        var stages = ["/", "/lots/lot-1", "/no-such-page"].flatMap { path in
            let tester = SceneTester(KioskApp.entry(kiosk.services), path: path)
            tester.exhaustivity = .off()
            return tester.stageBindings
        }
        // …the sign-up dialog with its form, then the welcome…
        let signUp = SceneTester(KioskApp.entry(kiosk.services), path: "/lots/lot-2")
        signUp.exhaustivity = .off()
        signUp.send("submit", to: "lot-1")
        stages += signUp.stageBindings
        let form = try #require(signUp.component("form", in: "signup-dialog-2"))
        signUp.send("email", to: form, value: "grace@example.com")
        signUp.send("password", to: form, value: "correct horse")
        signUp.send("submit", to: form)
        signUp.advance(by: .milliseconds(300))
        stages += signUp.stageBindings
        // …and sign-in, the profile and its trip.
        let signIn = SceneTester(KioskApp.entry(kiosk.services))
        signIn.exhaustivity = .off()
        signIn.send("profile", to: "listings")
        stages += signIn.stageBindings
        signIn.send("email", to: "signin-1", value: "ada@example.com")
        signIn.send("password", to: "signin-1", value: "lovelace1843")
        signIn.send("submit", to: "signin-1")
        signIn.advance(by: .milliseconds(300))
        signIn.send("profile", to: "listings")
        signIn.send("trip", to: "profile-2")
        stages += signIn.stageBindings
        return stages
    }

    /// TodoMVC's stage with a todo in its list (so its rows' members are checked).
    func todoMVC() -> SceneTester {
        let tester = SceneTester(TodoApp.entry(TodoLists(store: TodoStore())), request: TodoSceneTests.ada)
        tester.exhaustivity = .off()
        tester.send("add", to: "todoapp", value: ["title": "Buy milk"])
        return tester
    }

    @Test("The kiosk's stages match Public/index.html, at each address and with its dialogs open")
    func kiosk() throws {
        let report = try #require(SceneTester.checkBindings(try kioskStages(), page: "Public/index.html"))
        #expect(
            Set(report.checked).isSuperset(of: [
                "listings", "lot-card", "lot", "signup-dialog", "signup-form", "signin", "welcome", "profile", "flight",
                "not-found",
            ]))
    }

    @Test("The gallery's stages match Public/index.html at each of its addresses, and its about modal")
    func gallery() throws {
        #expect(
            SceneTester.checkBindings(page: "Public/index.html", app: ExamplesApp.entry, paths: Self.galleryPaths)?
                .isClean == true)
        let about = SceneTester(ExamplesApp.entry)
        about.exhaustivity = .off()
        about.send("about", to: "counter")
        let report = try #require(about.checkBindings(page: "Public/index.html"))
        #expect(report.checked.contains("about"))
    }

    @Test("TodoMVC's stage matches Public/todomvc/index.html, with a todo in its list")
    func todoMVCMatches() {
        let report = todoMVC().checkBindings(page: "Public/todomvc/index.html")
        #expect(report?.checked == ["todoapp"])
    }

    /// The page at `path` (from the package root) with `typo` put for `original` once.
    func page(_ path: String, replacing original: String, with typo: String) throws -> PageTemplates {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let html = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        let range = try #require(html.range(of: original))
        return try PageTemplates(html: html.replacingCharacters(in: range, with: typo))
    }

    @Test("A typo in each app's page is found, with the Swift spelling as its suggestion")
    func typosAreFound() throws {
        let kiosk = BindingCheck.check(
            try kioskStages(),
            against: try page(
                "Public/index.html", replacing: "data-text=\"accountName\"", with: "data-text=\"acountName\""))
        #expect(kiosk.mismatches.first?.description.contains("did you mean \"accountName\" (in Swift)?") == true)

        let galleryStages = Self.galleryPaths.flatMap { path in SceneTester(ExamplesApp.entry, path: path).stageBindings
        }
        let gallery = BindingCheck.check(
            galleryStages,
            against: try page("Public/index.html", replacing: "data-sends=\"picked\"", with: "data-sends=\"pickd\""))
        #expect(gallery.mismatches.map(\.kind) == [.unknownEvent, .unusedEvent])
        #expect(gallery.mismatches.map(\.suggestion) == ["picked", "pickd"])

        let todo = BindingCheck.check(
            todoMVC().stageBindings,
            against: try page(
                "Public/todomvc/index.html", replacing: "data-on-click=\"destroy\"", with: "data-on-click=\"destory\""))
        #expect(todo.mismatches.map(\.kind) == [.unknownEvent, .unusedEvent])
        #expect(todo.mismatches.first?.suggestion == "destroy")
    }
}
