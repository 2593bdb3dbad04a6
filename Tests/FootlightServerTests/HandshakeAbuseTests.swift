import FootlightProbes
import FootlightServer
import FootlightTesting
import Testing

/// RELIABILITY.md T2, T5, T6: malformed handshakes, oversized headers and slowloris
/// over raw sockets. None may allocate a session or stop a legitimate client.
@Suite(.timeLimit(.minutes(1)))
struct HandshakeAbuseTests {
    /// A server whose only session would be made by a successful handshake.
    func startServer() throws -> Server {
        try TestServer.start(configure: { $0.loops = 1 }) { _ in [CounterScene.makeStage()] }
    }

    @Test("T2: every malformed handshake is refused (4xx or closed) and allocates no session")
    func malformedHandshakes() async throws {
        let server = try startServer()
        defer { server.shutdown() }
        let port = server.port
        let good = RawWebSocket.handshake(port: port)
        func replacing(_ line: String, with replacement: String) -> String {
            precondition(good.contains(line), "no \(line) in the handshake")
            return good.replacingOccurrences(of: line, with: replacement)
        }
        let cases: [(String, String)] = [
            ("missing Host", replacing("Host: 127.0.0.1:\(port)\r\n", with: "")),
            ("short key", replacing("dGhlIHNhbXBsZSBub25jZQ==", with: "c2hvcnQ=")),
            ("key not base64", replacing("dGhlIHNhbXBsZSBub25jZQ==", with: "!!!!!!!!!!!!!!!!!!!!!!!!")),
            ("missing key", replacing("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", with: "")),
            ("version 8", replacing("Sec-WebSocket-Version: 13", with: "Sec-WebSocket-Version: 8")),
            ("version 12", replacing("Sec-WebSocket-Version: 13", with: "Sec-WebSocket-Version: 12")),
            ("version 14", replacing("Sec-WebSocket-Version: 13", with: "Sec-WebSocket-Version: 14")),
            ("missing version", replacing("Sec-WebSocket-Version: 13\r\n", with: "")),
            ("missing Upgrade", replacing("Upgrade: websocket\r\n", with: "")),
            ("wrong Upgrade", replacing("Upgrade: websocket", with: "Upgrade: h2c")),
            ("missing Connection", replacing("Connection: Upgrade\r\n", with: "")),
            ("Connection: close", replacing("Connection: Upgrade", with: "Connection: close")),
            ("POST", replacing("GET /ws", with: "POST /ws")),
            ("wrong path", replacing("GET /ws ", with: "GET /wsx ")),
            ("no subprotocol", replacing("Sec-WebSocket-Protocol: footlight.v1\r\n", with: "")),
            ("other subprotocol", replacing("footlight.v1", with: "chat")),
            ("no Origin", replacing("Origin: http://127.0.0.1:\(port)\r\n", with: "")),
            ("header without colon", replacing("Connection: Upgrade\r\n", with: "Connection: Upgrade\r\nGarbage\r\n")),
            ("binary garbage", String(decoding: (0..<200).map { UInt8(($0 * 37) & 0xFF) }, as: UTF8.self) + "\r\n\r\n"),
        ]
        for (name, request) in cases {
            let socket = try RawWebSocket(port: port)
            socket.write(request)
            let status = socket.readStatus()
            #expect(status != 101, "\(name): answered \(status.map(String.init) ?? "nothing")")
            if let status, status != 101 {
                #expect((400..<600).contains(status), "\(name): status \(status)")
            }
        }
        #expect(try RawHTTP.get(port: port, path: "/ws").status == 426, "the endpoint is not a page")
        // A known deviation, pinned so that a libwebsockets upgrade that changes it is
        // noticed: an otherwise valid handshake on an HTTP/1.0 request line is upgraded
        // (RFC 6455 asks for 1.1), and libwebsockets keeps no trace of the version.
        let http10 = try RawWebSocket(port: port)
        http10.write(replacing("HTTP/1.1", with: "HTTP/1.0"))
        #expect(http10.readStatus() == 101, "HTTP/1.0 handshakes are now refused: drop this deviation")
        #expect(server.sessionCount == 0, "no handshake made a session (a join does)")
        let client = try await TestClient.connect(to: server)
        try await client.send("increment", in: "counter")
        try await client.waitUntil("/count", in: "counter", equals: "Count: 1")
        #expect(server.sessionCount == 1)
    }

    @Test("T5: headers up to the limit are accepted; larger ones, or a thousand of them, are closed")
    func oversizedHeaders() async throws {
        let server = try startServer()
        defer { server.shutdown() }
        let port = server.port
        func attempt(_ extra: String) throws -> Int? {
            let socket = try RawWebSocket(port: port)
            socket.write(RawWebSocket.handshake(port: port, extraHeaders: extra))
            return socket.readStatus()
        }
        #expect(try attempt("Cookie: \(String(repeating: "a", count: 4 << 10))\r\n") == 101)
        for (name, extra) in [
            ("8 KB cookie", "Cookie: \(String(repeating: "a", count: 8 << 10))\r\n"),
            ("64 KB cookie", "Cookie: \(String(repeating: "a", count: 64 << 10))\r\n"),
            ("1000 headers", (0..<1000).map { "X-Header-\($0): value\r\n" }.joined()),
        ] {
            let status = try attempt(extra)
            #expect(status != 101, "\(name): answered \(status.map(String.init) ?? "nothing")")
        }
        #expect(server.sessionCount == 0, "a handshake alone makes no session (a join does)")
        let client = try await TestClient.connect(to: server)
        #expect(client.observation.joined)
    }

    @Test("The header timeout is the configured one: a silent connection closed after 1 s here is still open there")
    func headerTimeoutSetting() throws {
        func server(timeout: UInt16) throws -> Server {
            try TestServer.start(configure: { $0.headerTimeoutSeconds = timeout }) { _ in [CounterScene.makeStage()] }
        }
        let (short, long) = (try server(timeout: 1), try server(timeout: 300))
        defer {
            short.shutdown()
            long.shutdown()
        }
        let silentShort = try RawWebSocket(port: short.port, timeout: 15)
        let silentLong = try RawWebSocket(port: long.port, timeout: 1)
        #expect(silentShort.isClosedByPeer(), "closed by the 1 s header timeout (well before the 15 s bound)")
        #expect(!silentLong.isClosedByPeer(), "still open when the other was closed")
    }

    @Test("T6: 300 slowloris connections are closed by the header timeout; a real client joins during the attack")
    func slowloris() async throws {
        // A header timeout of 3 s (10 by default): the same path, in less time.
        let server = try TestServer.start(configure: {
            $0.loops = 1
            $0.headerTimeoutSeconds = 3
        }) { _ in [CounterScene.makeStage()] }
        defer { server.shutdown() }
        let port = server.port
        var attackers: [RawWebSocket] = []
        for _ in 0..<300 {
            let socket = try RawWebSocket(port: port, timeout: 15)
            socket.write("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: webso")
            attackers.append(socket)
        }
        let started = ContinuousClock.now
        let client = try await TestClient.connect(to: server, timeout: .seconds(5))
        try await client.send("increment", in: "counter")
        try await client.waitUntil("/count", in: "counter", equals: "Count: 1")
        // Each attacker is closed by the server (its end of the socket), not by the test's
        // own bound (the sockets' 15 s receive timeout). How long it took is printed, not
        // asserted: on a loaded machine the loop checks its timeouts late.
        var closed = 0
        for attacker in attackers where attacker.readStatus() == nil && attacker.isClosedByPeer() { closed += 1 }
        let took = ContinuousClock.now - started
        print("T6 slowloris: \(closed) of 300 partial handshakes closed by the server in \(took) (header timeout 3 s)")
        #expect(closed == 300, "\(closed) of 300 partial handshakes closed in \(took)")
        #expect(server.sessionCount == 1)
    }
}
