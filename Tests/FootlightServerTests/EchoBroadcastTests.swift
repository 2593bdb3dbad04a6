import FootlightProbes
import FootlightServer
import FootlightTesting
import Testing

/// The fan-out benchmark's transport floor: one message to every echo connection.
@Suite(.timeLimit(.minutes(1))) struct EchoBroadcastTests {
    @Test("A message sent to the echo connections reaches each of them once, and no session")
    func reachesEveryEchoConnection() async throws {
        let server = try TestServer.start(configure: {
            $0.echoPath = "/echo"
            $0.loops = 2
        }) { _ in
            [CounterScene.makeStage()]
        }
        defer { server.shutdown() }
        let page = try await TestClient.connect(to: server)
        defer { page.close() }
        let echoes = try (0..<3).map { _ in
            try RecordingClient(port: server.port, path: "/echo", subprotocol: ServerConfiguration.echoSubprotocol)
        }
        defer { for echo in echoes { echo.stop() } }
        // Each connection's own message comes back first: the server holds it by then.
        for echo in echoes {
            try await echo.waitUntilOpen()
            echo.on { $0.send(Array("hello".utf8)) }
        }
        try await waitFor("every greeting to come back") { echoes.allSatisfy { $0.messages.count == 1 } }
        let sentBefore = server.sentMessageCount

        server.sendToEchoConnections(Array(#"{"t":"patch"}"#.utf8))
        try await waitFor("the message at every echo connection") { echoes.allSatisfy { $0.messages.count == 2 } }
        for echo in echoes {
            #expect(echo.messages.map { String(decoding: $0.bytes, as: UTF8.self) } == ["hello", #"{"t":"patch"}"#])
        }
        // Three writes, none of them to the page's session.
        #expect(server.sentMessageCount - sentBefore == 3)
        #expect(page.document(of: CounterScene.stageName) != nil)
    }
}
