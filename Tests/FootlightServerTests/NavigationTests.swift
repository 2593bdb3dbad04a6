import FootlightJSON
import FootlightProbes
import FootlightServer
import FootlightTesting
import Testing

/// Scenes presenting scenes over a real socket: push and pop, the back button,
/// modals, external URLs and deep links.
@Suite(.timeLimit(.minutes(1)))
struct NavigationTests {
    @Test("Opening a row pushes its detail with a URL; close pops it")
    func pushAndPop() async throws {
        let server = try TestServer.startApp(ProbeApp.entry)
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        #expect(client.observation.mirror.stages.map(\.id) == ["counter", "lots"])
        try await client.send("open", in: "lots", value: ["id": "lot-3"])
        try await client.wait("the detail") { $0.mirror.stages.count == 3 }
        let detail = try #require(client.observation.mirror.stages.last)
        #expect(detail.template == "detail" && detail.placement == "push")
        #expect(client.value(at: "/title", in: detail.id) == "Lot 3")
        try await client.send("close", in: detail.id)
        try await client.wait("the pop") { $0.mirror.stages.count == 2 }
        #expect(client.observation.mirror.violations.isEmpty)
    }

    @Test("The back button (@back) pops the stage it names; at the root it does nothing")
    func backButton() async throws {
        let server = try TestServer.startApp(ProbeApp.entry)
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        try await client.send("open", in: "lots", value: ["id": "lot-1"])
        try await client.send("open", in: "lots", value: ["id": "lot-2"])
        try await client.wait("two details") { $0.mirror.stages.count == 4 }
        try await client.send("@back", in: client.observation.mirror.stages.last!.id)  // the page names its top
        try await client.wait("one pop") { $0.mirror.stages.count == 3 }
        #expect(client.value(at: "/title", in: client.observation.mirror.stages.last!.id) == "Lot 1")
        try await client.send("@back", in: client.observation.mirror.stages.last!.id)
        try await client.send("@back", in: "lots")  // a root: nothing to go back from
        try await client.waitUntilAcknowledged()
        #expect(client.observation.mirror.stages.map(\.id) == ["counter", "lots"])
        #expect(client.observation.mirror.errors.isEmpty)
    }

    @Test("A modal is presented and dismissed; docs opens an external URL")
    func modalAndOpenURL() async throws {
        let server = try TestServer.startApp(ProbeApp.entry) { $0.sendsErrorDetails = true }
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        try await client.send("about", in: "counter")
        try await client.wait("the modal") { $0.mirror.stages.last?.placement == "modal" }
        let modal = client.observation.mirror.stages.last!.id
        try await client.send("docs", in: modal)
        try await client.wait("the URL") { $0.mirror.openedURLs == [AboutScene.documentationURL] }
        try await client.send("dismiss", in: modal)
        try await client.wait("the dismissal") { $0.mirror.stages.count == 2 }
        try await client.send("increment", in: modal)
        let error = try await client.waitForError("unknown-stage")
        #expect(error.message.contains("no stage \"\(modal)\" is mounted"))
    }

    @Test("A deep link opens the scenes its path names, and a resume keeps them")
    func deepLink() async throws {
        let server = try TestServer.startApp(ProbeApp.entry)
        defer { server.shutdown() }
        let client = try await TestClient.connect(port: server.port, path: "/lots/lot-4")
        #expect(client.observation.mirror.stages.map(\.template) == ["counter", "lots", "detail"])
        let detail = client.observation.mirror.stages.last!.id
        #expect(client.value(at: "/title", in: detail) == "Lot 4")
        client.drop()
        try await client.resume()
        #expect(client.observation.mirror.stages.map(\.template) == ["counter", "lots", "detail"])
    }

    @Test("Page addresses without a file serve the page, so reloads and shared links work")
    func historyFallback() throws {
        let server = try TestServer.startApp(ProbeApp.entry)
        defer { server.shutdown() }
        let page = try RawHTTP.get(port: server.port, path: "/lots/lot-4")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(try RawHTTP.get(port: server.port, path: "/lots/missing.js").status == 404)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct BackButtonRaceTests {
    @Test("@back for a stage the server already popped does nothing; @back names what it closes")
    func staleBack() async throws {
        let server = try TestServer.startApp(ProbeApp.entry)
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        try await client.send("open", in: "lots", value: ["id": "lot-1"])
        try await client.wait("the detail") { $0.mirror.stages.count == 3 }
        let first = client.observation.mirror.stages.last!.id
        try await client.send("close", in: first)  // the server pops it…
        try await client.send("open", in: "lots", value: ["id": "lot-2"])  // …and pushes another
        try await client.send("@back", in: first)  // a back press that raced the pop
        try await client.waitUntilAcknowledged()
        let top = try #require(client.observation.mirror.stages.last)
        #expect(top.template == "detail" && top.id != first, "the newer detail stays")
        try await client.send("@back", in: top.id)
        try await client.wait("the pop") { $0.mirror.stages.count == 2 }
    }
}
