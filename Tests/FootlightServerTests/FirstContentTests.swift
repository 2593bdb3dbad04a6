import Footlight
import FootlightJSON
import FootlightProbes
import FootlightTesting
import Foundation
import Synchronization
import Testing

@testable import FootlightServer

/// First content in a page's first response: the `GET` starts the session, the page
/// carries its `joined` and mounts, and the socket's join adopts it.
@Suite(.timeLimit(.minutes(1)))
struct FirstContentTests {
    /// Text that would end or bend a `<script>` element, or a JavaScript line, if it were
    /// written as it is.
    static let hostile = "</script><script>alert(1)</script><!-- & \u{2028}\u{2029} >"

    /// A server whose sessions show one stage ("probe") counting how many sessions made
    /// it, with a slot holding ``hostile`` and an event that counts.
    final class Probe: Sendable {
        let made = Atomic<Int>(0)

        func start(configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> Server {
            try TestServer.start(configure: configure) { [self] _ in
                made.add(1, ordering: .relaxed)
                let clicks = PassthroughSubject<Void, Never>()
                let count = clicks.scan(0) { total, _ in total + 1 }.prepend(0)
                let stage = Stage(name: "probe")
                stage.bind(Just(FirstContentTests.hostile), to: "text")
                stage.bind(count.map { "Clicks: \($0)" }, to: "clicks")
                stage.on("click", send: clicks)
                return [stage]
            }
        }
    }

    /// The messages a page's first content holds, parsed; nil when the page has none.
    static func firstMessages(_ body: [UInt8]) throws -> [JSON]? {
        let page = String(decoding: body, as: UTF8.self)
        let open = #"<script type="application/json" id="footlight-first">"#
        guard let start = page.range(of: open) else { return nil }
        let rest = page[start.upperBound...]
        let end = try #require(rest.range(of: "</script>"))
        return try JSON.parse(String(rest[..<end.lowerBound])).arrayValue
    }

    /// A socket joining with `token` after `seq`: its first text message, parsed, and the socket.
    static func join(port: Int, token: String, seq: Int, restore: String = "") throws -> (JSON, RawWebSocket) {
        let socket = try RawWebSocket(port: port)
        socket.write(RawWebSocket.handshake(port: port))
        try #require(socket.readStatus() == 101)
        socket.frame(
            opcode: 0x1,
            payload: Array(#"{"t":"join","v":1,"token":"\#(token)","seq":\#(seq),"path":"/"\#(restore)}"#.utf8))
        return (try nextMessage(socket), socket)
    }

    /// The next text message on `socket`, parsed.
    static func nextMessage(_ socket: RawWebSocket) throws -> JSON {
        while let (opcode, payload) = socket.readFrame() {
            if opcode == 0x1 { return try JSON.parse(payload) }
            if opcode == 0x8 { break }
        }
        throw RawHTTPError("the socket closed before a message")
    }

    /// Waits at most 5 s for `condition`.
    static func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test("A page's GET carries joined and the mounts, escaped for a script element, never stored")
    func pageCarriesFirstContent() throws {
        let probe = Probe()
        let server = try probe.start()
        defer { server.shutdown() }
        let page = try RawHTTP.get(port: server.port, path: "/")
        #expect(page.status == 200)
        #expect(page.headers["cache-control"] == "private, no-store")
        #expect(page.headers["set-cookie"]?.hasPrefix("footlight_visitor=") == true)
        let text = String(decoding: page.body, as: UTF8.self)
        #expect(text.hasPrefix("<!doctype html><title>Footlight test</title>"), "the page as it is, data added")
        #expect(text.components(separatedBy: "</script>").count == 2, "only the element's own end tag")
        #expect(!text.contains("<!--") && !text.contains("\u{2028}") && !text.contains("\u{2029}"))
        let messages = try #require(try Self.firstMessages(page.body))
        #expect(messages.count == 2)
        #expect(messages[0]["t"] == "joined" && messages[0]["resumed"] == false && messages[0]["mounts"] == 1)
        #expect(messages[0]["token"]?.stringValue?.hasPrefix("v1.") == true)
        #expect(messages[1]["t"] == "mount" && messages[1]["template"] == "probe" && messages[1]["seq"] == 1)
        #expect(messages[1]["doc"]?["text"] == .string(Self.hostile), "the text comes back whole")
        #expect(probe.made.load(ordering: .relaxed) == 1)
        #expect(server.registry.pendingCount == 1 && server.retainedSessionCount == 0)
    }

    @Test("The GET's session sees the page's address with its query, its visitor (a new one's too) and headers")
    func sessionSeesTheRequest() throws {
        let server = try TestServer.start(stages: VisitorTests.requestStage)
        defer { server.shutdown() }
        let page = try RawHTTP.get(
            port: server.port, path: "/lots/7?sort=price", extraHeaders: "User-Agent: probe/1\r\n")
        let cookie = try #require(VisitorTests.pair(page.headers["set-cookie"]))
        let messages = try #require(try Self.firstMessages(page.body))
        let document = try #require(messages.last?["doc"])
        #expect(document["path"] == "/lots/7?sort=price" && document["agent"] == "probe/1")
        let visitor = try #require(document["visitor"]?.stringValue)
        #expect(cookie.contains(visitor), "the visitor of the cookie the page sets")
        let again = try RawHTTP.get(port: server.port, path: "/", extraHeaders: "Cookie: \(cookie)\r\n")
        #expect(try Self.firstMessages(again.body)?.last?["doc"]?["visitor"]?.stringValue == visitor)
    }

    @Test("The socket's join adopts the GET's session: nothing is built twice, and it is live")
    func joinAdopts() async throws {
        let probe = Probe()
        let server = try probe.start()
        defer { server.shutdown() }
        let messages = try #require(try Self.firstMessages(try RawHTTP.get(port: server.port, path: "/").body))
        let token = try #require(messages[0]["token"]?.stringValue)
        let stage = try #require(messages[1]["stage"]?.stringValue)
        let (joined, socket) = try Self.join(port: server.port, token: token, seq: 1)
        #expect(joined["t"] == "joined" && joined["resumed"] == true && joined["snapshot"] == nil)
        #expect(joined["token"]?.stringValue == token)
        try await Self.eventually { server.registry.pendingCount == 0 }
        #expect(server.registry.pendingCount == 0, "adopted: no longer pending")
        socket.frame(opcode: 0x1, payload: Array(#"{"t":"event","n":1,"stage":"\#(stage)","name":"click"}"#.utf8))
        let patch = try Self.nextMessage(socket)
        #expect(patch["t"] == "patch" && patch["seq"] == 2 && patch["ack"] == 1)
        #expect(probe.made.load(ordering: .relaxed) == 1, "the join built nothing")
        #expect(server.sessionCount == 1)
    }

    @Test("A session no page joins expires and is released; a join after that rebuilds from the page")
    func expiryAndLateJoin() async throws {
        let probe = Probe()
        let server = try probe.start(configure: { $0.firstContent.expiry = .milliseconds(200) })
        defer { server.shutdown() }
        let messages = try #require(try Self.firstMessages(try RawHTTP.get(port: server.port, path: "/").body))
        let token = try #require(messages[0]["token"]?.stringValue)
        let stage = try #require(messages[1]["stage"]?.stringValue)
        #expect(server.sessionCount == 1)
        try await Self.eventually { server.sessionCount == 0 }
        #expect(server.sessionCount == 0 && server.registry.pendingCount == 0, "expired and released")
        #expect(server.retainedSessionCount == 0, "never counted as a retained session")
        let restore = #","restore":[{"id":"\#(stage)","template":"probe"}]"#
        let (joined, _) = try Self.join(port: server.port, token: token, seq: 1, restore: restore)
        #expect(joined["t"] == "joined" && joined["resumed"] == false, "a new session")
        #expect(joined["rebuilt"]?.arrayValue?.count == 1, "rebuilt from what the page shows")
        #expect(probe.made.load(ordering: .relaxed) == 2)
    }

    @Test("A flood of GETs holds no more than the bound: past it, pages go plain")
    func floodIsBounded() throws {
        let probe = Probe()
        let server = try probe.start(configure: { $0.firstContent.maximumPending = 3 })
        defer { server.shutdown() }
        var withContent = 0
        for _ in 0..<12 {
            let page = try RawHTTP.get(port: server.port, path: "/")
            #expect(page.status == 200)
            if try Self.firstMessages(page.body) != nil {
                withContent += 1
                #expect(page.headers["cache-control"] == "private, no-store")
            } else {
                #expect(page.headers["cache-control"] == "private, no-cache", "the plain page, as it is")
            }
        }
        #expect(withContent == 3)
        #expect(server.registry.pendingCount == 3 && server.sessionCount == 3)
        #expect(probe.made.load(ordering: .relaxed) == 3)
    }

    @Test("A first turn slower than the time limit gets the plain page; its session holds its place until it ends")
    func slowFirstTurn() async throws {
        let made = Atomic<Int>(0)
        let server = try TestServer.start(configure: {
            $0.firstContent.timeLimit = .milliseconds(30)
            $0.firstContent.maximumPending = 2
        }) { _ in
            made.add(1, ordering: .relaxed)
            usleep(500_000)
            return [CounterScene.makeStage()]
        }
        defer { server.shutdown() }
        for _ in 0..<4 {
            let page = try RawHTTP.get(port: server.port, path: "/")
            #expect(page.status == 200)
            #expect(try Self.firstMessages(page.body) == nil)
        }
        #expect(made.load(ordering: .relaxed) == 2, "a blocking app holds no more sessions than the bound")
        #expect(server.registry.pendingCount == 2)
        try await Self.eventually { server.sessionCount == 0 }
        #expect(server.sessionCount == 0 && server.registry.pendingCount == 0, "ended once their turns were done")
    }

    @Test("Off, or a HEAD, or a file that is no page: no session is started")
    func noSessionWithoutAPage() throws {
        let probe = Probe()
        let off = try probe.start(configure: { $0.firstContent.isEnabled = false })
        defer { off.shutdown() }
        let plain = try RawHTTP.get(port: off.port, path: "/")
        #expect(try Self.firstMessages(plain.body) == nil && plain.headers["cache-control"] == "private, no-cache")
        let on = try probe.start()
        defer { on.shutdown() }
        let head = try RawHTTP.exchange(
            port: on.port, request: Array("HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        #expect(String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        #expect(try RawHTTP.get(port: on.port, path: "/app.js").status == 200)
        #expect(probe.made.load(ordering: .relaxed) == 0)
        #expect(off.sessionCount == 0 && on.sessionCount == 0)
    }

    @Test("The runtime reads the element the server writes")
    func runtimeNamesTheElement() throws {
        let runtime = try StaticAssets.runtimeFolder() + "/transport.js"
        let source = try String(contentsOfFile: runtime, encoding: .utf8)
        #expect(source.contains("getElementById('\(FirstContentPage.elementID)')"))
    }

    @Test("The data go before the last </body>, escaped; a page without one gets them at its end")
    func embedding() {
        let message = WireMessage(bytes: Array(#"{"t":"x","s":"</script>&\#u{2028}"}"#.utf8))
        let page = Array("<html><body><p>a</p></BODY></html>".utf8)
        let made = String(decoding: FirstContentPage.embed([message, message], in: page), as: UTF8.self)
        let element = #"<script type="application/json" id="footlight-first">"#
        let data = #"{"t":"x","s":"\u003c/script\u003e\u0026\u2028"}"#
        #expect(made == "<html><body><p>a</p>\(element)[\(data),\(data)]</script>\n</BODY></html>")
        let bare = String(decoding: FirstContentPage.embed([], in: Array("<p>".utf8)), as: UTF8.self)
        #expect(bare == "<p>\(element)[]</script>\n")
    }

    @Test("Pending sessions: bounded, adopted only once waiting, expired in order")
    func pendingSessions() {
        let start = ContinuousClock.now
        var pending = PendingSessions(maximum: 2, expiry: .seconds(10))
        let admitted = [pending.admit("a", now: start), pending.admit("b", now: start + .seconds(1))]
        let full = pending.admit("c", now: start)
        #expect(admitted == [true, true] && !full)
        let adoptedStarting = pending.adopt("a")
        #expect(!adoptedStarting, "still starting: the GET's own connection")
        let waits = [pending.wait("a"), pending.wait("z")]
        let adopted = pending.adopt("a")
        #expect(waits == [true, false] && adopted && !pending.contains("a"))
        let readmitted = pending.admit("c", now: start + .seconds(2))
        let first = pending.expire(now: start + .seconds(11))
        let second = pending.expire(now: start + .seconds(12))
        #expect(readmitted && first == ["b"] && second == ["c"] && pending.count == 0)
    }
}
