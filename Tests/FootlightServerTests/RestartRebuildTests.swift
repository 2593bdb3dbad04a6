import FootlightJSON
import FootlightServer
import FootlightTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A deploy the visitors do not see: a kiosk with 200 sessions is killed with SIGKILL
/// and started again on the same port and data directory; each page rebuilds its
/// session from what it shows (`restore`), as the browser runtime does.
@Suite(.timeLimit(.minutes(3)))
struct RestartRebuildTests {
    /// One page: its client, and the values its runtime kept (by stage id).
    struct Page {
        let client: TestClient
        var kept: [String: JSONObject] = [:]
    }

    @Test(
        "200 sessions come back after SIGKILL: the same stages, sign-in and typed values; acknowledged events kept; an unacknowledged bid is reported, not applied twice"
    )
    func sigkillAndRestart() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("footlight-rebuild-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let arguments = ["--app", "auction", "--log-level", "warning", "--data-dir", data]
        let demo = try DemoProcess(arguments: arguments)
        let port = demo.port

        // One visitor signs in once, for all its sessions (the cookie names it).
        let cookie = try #require(
            try RawHTTP.get(port: port, path: "/").headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        let first = try await TestClient.connect(port: port, cookie: cookie)
        try await first.send("signIn", in: "listings")
        try await first.wait("the sign-in modal") { $0.mirror.stages.last?.template == "signin" }
        let signin = try #require(first.observation.mirror.stages.last?.id)
        try await first.send("email", in: signin, value: "ada@example.com")
        try await first.send("password", in: signin, value: "lovelace1843")
        try await first.send("submit", in: signin)
        try await first.waitUntil("/accountName", in: "listings", equals: "Ada Lovelace", timeout: .seconds(30))
        try await first.wait("the modal to close") { $0.mirror.stages.count == 1 }

        // 151 listings in the table order (a recoverable choice), 45 profiles.
        var ordered: [Page] = []
        for index in 0..<151 {
            let client = index == 0 ? first : try await TestClient.connect(port: port, cookie: cookie)
            try await client.send("order", in: "listings", value: ["id": "alphabetical"])
            ordered.append(Page(client: client, kept: ["listings": ["order": ["id": "alphabetical"]]]))
        }
        var profiles: [Page] = []
        for _ in 0..<45 {
            profiles.append(Page(client: try await TestClient.connect(port: port, path: "/profile", cookie: cookie)))
        }
        // A lot with a typed amount.
        let typer = try await TestClient.connect(port: port, path: "/lots/lot-2", cookie: cookie)
        let typedLot = try #require(typer.observation.mirror.stages.last?.id)
        try await typer.send("amount", in: typedLot, value: "12345")
        // Signed out, the sign-up dialog open over a lot, an address typed.
        let newcomer = try await TestClient.connect(port: port, path: "/lots/lot-1")
        let newcomerLot = try #require(newcomer.observation.mirror.stages.last?.id)
        try await newcomer.send("submit", in: newcomerLot)
        try await newcomer.wait("the sign-up dialog and its form") {
            // (The listings' lot cards are components too.)
            $0.mirror.stages.last?.template == "signup-dialog"
                && $0.mirror.components.values.contains { $0.template == "signup-form" }
        }
        let dialog = try #require(newcomer.observation.mirror.stages.last?.id)
        let form = try #require(Self.form(in: dialog, of: newcomer))
        try await newcomer.send("email", in: form, value: "grace@example.com")
        // A bidder whose second bid is applied but never acknowledged to it (it stopped
        // reading), and a watcher that sees the bid land.
        let watcher = try await TestClient.connect(port: port, path: "/lots/lot-3", cookie: cookie)
        let bidder = try await TestClient.connect(port: port, path: "/lots/lot-3", cookie: cookie)
        let bidLot = try #require(bidder.observation.mirror.stages.last?.id)
        let watchedLot = try #require(watcher.observation.mirror.stages.last?.id)
        try await placeBid(bidder, in: bidLot)
        try await watcher.waitUntil("/lot/bidCount", in: watchedLot, equals: "1 bid", timeout: .seconds(10))
        try await bidder.waitUntil("/lot/bidCount", in: bidLot, equals: "1 bid", timeout: .seconds(10))
        bidder.pauseReading()
        try await placeBid(bidder, in: bidLot, acknowledged: false)
        try await watcher.waitUntil("/lot/bidCount", in: watchedLot, equals: "2 bids", timeout: .seconds(10))
        bidder.drop()  // a reader that stopped notices no end: its network went first

        let pages =
            ordered + profiles
            + [
                Page(client: typer, kept: [typedLot: ["amount": "12345"]]),
                // The form's value, kept with its dialog and named by its host.
                Page(client: newcomer, kept: [dialog: ["form/email": "grace@example.com"]]),
                Page(client: watcher), Page(client: bidder),
            ]
        #expect(pages.count == 200)
        for page in pages where page.client !== bidder { try await page.client.waitUntilAcknowledged() }
        let before = pages.map { $0.client.observation.mirror.stages.map(\.template) }
        let restores = pages.map { $0.client.observation.mirror.restore(values: $0.kept) }

        kill(demo.pid, SIGKILL)
        #expect(try await demo.waitForExit(timeout: .seconds(5)) == nil, "killed, not exited")
        let restarted = try DemoProcess(arguments: arguments, port: port)
        let back = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (page, restore) in zip(pages, restores) {
                group.addTask { try await page.client.resume(attempts: 3, restoring: restore, timeout: .seconds(10)) }
            }
            try await group.waitForAll()
        }
        print(
            "RestartRebuildTests: \(pages.count) sessions rebuilt \(ContinuousClock.now - back) after the server was back"
        )
        _ = restarted

        for (index, page) in pages.enumerated() {
            let mirror = page.client.observation.mirror
            #expect(mirror.stages.map(\.template) == before[index], "page \(index) shows the same stages")
            #expect(mirror.rebuilt?.count == before[index].count && mirror.rebuilt?.contains(nil) == false)
            #expect(mirror.errors.isEmpty, "page \(index): \(mirror.errors)")
            #expect(mirror.violations.isEmpty)
        }
        for page in ordered {
            #expect(page.client.document(of: "listings")?["accountName"] == "Ada Lovelace", "the sign-in is back")
            #expect(page.client.document(of: "listings")?["layout"] == "table", "the order chosen before the kill")
        }
        for page in profiles {
            #expect(page.client.observation.mirror.stages.last?.url == "/profile")
        }
        let typedAgain = try #require(typer.observation.mirror.stages.last?.id)
        #expect(typer.value(at: "/amount", in: typedAgain) == "12345")
        let dialogAgain = try #require(newcomer.observation.mirror.stages.last?.id)
        let formAgain = try #require(Self.form(in: dialogAgain, of: newcomer))
        #expect(newcomer.value(at: "/email", in: formAgain) == "grace@example.com")
        #expect(newcomer.document(of: "listings")?["accountName"] == .null, "still signed out")

        // The bid applied before the kill is there once; the bidder was told it may not
        // have been sent, and sent nothing again.
        let bidAgain = try #require(bidder.observation.mirror.stages.last?.id)
        #expect(bidder.value(at: "/lot/bidCount", in: bidAgain) == "2 bids")
        #expect(bidder.observation.mirror.lost.map { $0["name"] }.contains("submit"))
        #expect(bidder.observation.mirror.unacknowledged.isEmpty)
        #expect(bidder.observation.mirror.nextEvent == 1)
        for page in pages { page.client.close() }
    }

    /// Types the lot's minimum bid and submits it; waits for its answer when `acknowledged`.
    private func placeBid(_ client: TestClient, in lot: String, acknowledged: Bool = true) async throws {
        let minimum = try #require(client.value(at: "/lot/minimumBid", in: lot)?.stringValue)
        if acknowledged {
            try await client.send("amount", in: lot, value: .string(minimum))
            try await client.send("submit", in: lot)
            try await client.waitUntil("/submitting", in: lot, equals: false, timeout: .seconds(10))
            try await client.waitUntilAcknowledged()
        } else {
            // Sent without waiting: the client reads nothing now.
            _ = try await client.send("amount", in: lot, value: .string(minimum))
            _ = try await client.send("submit", in: lot)
        }
    }

    /// The sign-up form placed in the dialog `dialog`, as `client` was told.
    private static func form(in dialog: String, of client: TestClient) -> String? {
        client.observation.mirror.components.first { $0.value.parent == dialog }?.key
    }
}
