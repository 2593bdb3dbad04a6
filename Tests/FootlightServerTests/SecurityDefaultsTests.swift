import FootlightServer
import FootlightTesting
import Testing

/// What a server does for its safety when nothing is configured (issue 6, item 9).
@Suite(.timeLimit(.minutes(1)))
struct SecurityDefaultsTests {
    @Test("The defaults: own origin only, no error details, finite caps, a per-session event rate limit")
    func defaults() {
        let configuration = ServerConfiguration(publicDirectory: "Public")
        #expect(configuration.allowedOrigins == nil, "nil allows only the server's own origin")
        #expect(configuration.sendsErrorDetails == false)
        #expect(configuration.resumeTokenKey == nil, "a random key per process")
        #expect(configuration.maximumConnectionsPerClient == 1_000)
        #expect(configuration.maximumConnections == 20_000)
        #expect(configuration.sessionLimits.eventsPerSecond == 50)
        #expect(configuration.sessionLimits.eventBurst == 100)
    }

    @Test("With the default limits, a flood of events from one session is cut by the rate limit")
    func rateLimitOnByDefault() async throws {
        let server = try TestServer.start(stages: ProbeScenes.all)
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        // 500 events: getting them all through would need the flood to last over 8 s
        // (a burst of 100, then 50 per second); it takes milliseconds.
        let total = 500
        for index in 0..<total { try await client.send("say", in: "echo", value: .string("\(index)")) }
        try await client.waitUntilAcknowledged()
        let refused = client.observation.mirror.errors.filter { $0.code == "rate-limited" }.reduce(0) {
            $0 + $1.eventCount
        }
        let applied = client.value(at: "/count", in: "echo")?.intValue ?? -1
        // (Errors are coalesced and a slow client's backlog of them is bounded, so the
        // refusals reported need not add up to every event refused.)
        #expect(refused > 0, "the default rate limit refused none of \(total) events")
        #expect(applied >= 100 && applied < total, "the burst applies, the rest of the flood does not")
    }
}
