import FootlightProbes
import FootlightServer
import FootlightTesting
import Testing

/// Cross-site WebSocket hijacking: only allowed origins reach a session.
@Suite(.timeLimit(.minutes(1)))
struct OriginTests {
    func attempt(_ port: Int, origin: String?, subprotocol: String? = ServerConfiguration.subprotocol) async throws
        -> Bool
    {
        let client = try await TestClient.connect(port: port, sendingOrigin: origin, subprotocol: subprotocol)
        defer { client.close() }
        return client.observation.joined
    }

    @Test("With no configuration only the server's own origin is accepted")
    func ownOriginOnly() async throws {
        let server = try TestServer.start { _ in [CounterScene.makeStage()] }
        defer { server.shutdown() }
        let port = server.port
        #expect(try await attempt(port, origin: "http://127.0.0.1:\(port)"))
        for origin in [
            "http://evil.example", "null", "http://127.0.0.1:\(port + 1)", "http://localhost:\(port)",
            "https://127.0.0.1.evil.example:\(port)", "https://127.0.0.1:\(port)", "http://sub.127.0.0.1:\(port)",
            "HTTP://127.0.0.1:\(port)", "http://127.0.0.1:\(port)/",
        ] {
            #expect(try await !attempt(port, origin: origin), "origin \(origin) must be refused")
        }
        #expect(try await !attempt(port, origin: nil), "a handshake without Origin must be refused")
        #expect(server.sessionCount == 1, "refused handshakes allocate no session")
    }

    @Test("A configured allow-list replaces the default")
    func allowList() async throws {
        let server = try TestServer.start(configure: { $0.allowedOrigins = ["https://kiosk.example"] }) { _ in
            [CounterScene.makeStage()]
        }
        defer { server.shutdown() }
        #expect(try await attempt(server.port, origin: "https://kiosk.example"))
        #expect(try await !attempt(server.port, origin: "http://kiosk.example"))
        #expect(try await !attempt(server.port, origin: "http://127.0.0.1:\(server.port)"))
    }

    @Test("A handshake without the footlight.v1 subprotocol is refused")
    func subprotocolRequired() async throws {
        let server = try TestServer.start { _ in [CounterScene.makeStage()] }
        defer { server.shutdown() }
        #expect(try await !attempt(server.port, origin: "http://127.0.0.1:\(server.port)", subprotocol: nil))
        #expect(try await !attempt(server.port, origin: "http://127.0.0.1:\(server.port)", subprotocol: "chat"))
        #expect(server.sessionCount == 0)
    }
}
