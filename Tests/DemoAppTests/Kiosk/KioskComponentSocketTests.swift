import DemoApp
import FootlightJSON
import FootlightServer
import FootlightTesting
import Testing

/// The kiosk's sign-up form, a component, over a real socket: its events reach it alone,
/// and an event for it after it is gone is refused while the session goes on.
@Suite(.timeLimit(.minutes(1)))
struct KioskComponentSocketTests {
    @Test("An event for a component removed with its dialog gets unknown-stage; nothing else breaks")
    func eventForARemovedComponent() async throws {
        let auction = AuctionService(lots: AuctionCatalogue.lots(), clock: ManualAuctionClock())
        let server = try TestServer.startApp(KioskApp.entry(KioskServices(auction: auction, latency: .milliseconds(1))))
        defer { server.shutdown() }
        let client = try await TestClient.connect(port: server.port, path: "/lots/lot-1")
        let lot = try #require(client.observation.mirror.stages.last?.id)
        try await client.send("submit", in: lot)  // signed out: the sign-up dialog opens
        try await client.wait("the dialog and its form") {
            $0.mirror.stages.last?.template == "signup-dialog" && $0.mirror.components.count == 13
        }
        let dialog = try #require(client.observation.mirror.stages.last?.id)
        // The listings' twelve lot cards are components too.
        let (form, placed) = try #require(
            client.observation.mirror.components.first { $0.value.template == "signup-form" })
        #expect(placed.parent == dialog && placed.host.name == "form")

        // The form's events are its own: the dialog does not take them, nor the form the dialog's.
        try await client.send("email", in: form, value: "grace@")
        try await client.waitUntil("/email", in: form, equals: "grace@")
        try await client.send("email", in: dialog, value: "x")
        try await client.waitForError("unknown-event")
        try await client.send("signIn", in: form)
        try await client.wait("the second refusal") { $0.mirror.errors.count == 2 }
        #expect(client.observation.mirror.errors.map(\.code) == ["unknown-event", "unknown-event"])

        // Closed with the back button: the form goes first, then its dialog.
        try await client.send("@back", in: dialog)
        try await client.wait("the dialog gone") { $0.mirror.stages.last?.id == lot }
        #expect(client.observation.mirror.components.values.map(\.template) == Array(repeating: "lot-card", count: 12))
        #expect(client.observation.mirror.documents[form] == nil)
        // A late event for the form, as a page still showing it would send.
        try await client.send("email", in: form, value: "grace@example.com")
        try await client.waitForError("unknown-stage")
        // The session goes on: the lot still takes its events.
        try await client.send("amount", in: lot, value: "600")
        try await client.waitUntil("/amount", in: lot, equals: "600")
        try await client.waitUntilAcknowledged()
        #expect(client.observation.mirror.errors.map(\.code) == ["unknown-event", "unknown-event", "unknown-stage"])
        #expect(client.observation.mirror.violations.isEmpty)
    }
}
