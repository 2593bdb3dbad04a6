import FootlightJSON
import FootlightProbes
import FootlightServer
import FootlightTesting
import Testing

@Suite(.timeLimit(.minutes(2)))
struct RetentionCapTests {
    /// Reliability plan T24.
    @Test("Past the retention cap the longest-disconnected sessions go first; the others resume intact")
    func leastRecentlyDisconnectedGoFirst() async throws {
        let cap = 20
        let server = try TestServer.start(configure: { $0.sessionLimits.maximumRetained = cap }) { _ in
            [CounterScene.makeStage()]
        }
        defer { server.shutdown() }
        var clients: [TestClient] = []
        for index in 0..<2 * cap {
            let client = try await TestClient.connect(to: server)
            for _ in 0...index % 3 { try await client.send("increment", in: "counter") }
            try await client.waitUntil("/count", in: "counter", equals: .string("Count: \(index % 3 + 1)"))
            clients.append(client)
        }
        let tokens = clients.map(\.observation.mirror.token)

        // Disconnect one at a time, in order, each seen by the server before the next.
        for (index, client) in clients.enumerated() {
            client.drop()
            let evicted = max(0, index + 1 - cap)
            try await waitFor("disconnect \(index + 1) to reach the server") {
                server.sessionCount == 2 * cap - evicted
                    && server.retainedSessionCount == min(index + 1, cap)
            }
            #expect(server.retainedSessionCount <= cap)
        }

        for (index, client) in clients.enumerated() {
            try await client.resume()
            let mirror = client.observation.mirror
            if index < cap {
                #expect(mirror.errors.map(\.code) == ["unknown-session"], "session \(index) was evicted")
                #expect(mirror.token != tokens[index])
                #expect(client.value(at: "/count", in: "counter") == "Count: 0")
            } else {
                #expect(mirror.errors.isEmpty && mirror.token == tokens[index], "session \(index) was kept")
                #expect(client.value(at: "/count", in: "counter") == .string("Count: \(index % 3 + 1)"))
            }
        }
    }
}
