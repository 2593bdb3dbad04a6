import FootlightJSON
import FootlightProbes
import FootlightServer
import FootlightTesting
import Testing

@Suite(.timeLimit(.minutes(6)))
struct ReconnectStormTests {
    /// Reliability plan T25.
    @Test("Every connection cut at once: every client resumes its own session, intact, with no error")
    func storm() async throws {
        let sessions = 1_000
        let server = try TestServer.start(configure: FaultInjectionTests.unthrottled) { _ in
            [CounterScene.makeStage()]
        }
        defer { server.shutdown() }
        let proxy = try FaultProxy(
            upstreamPort: server.port, policy: .never, random: SeededGenerator(seed: 25), lifetime: .seconds(360))
        defer { proxy.stop() }

        // Session i clicks i % 7 + 1 times, so each document is told apart.
        let clients = try await withThrowingTaskGroup(of: (Int, TestClient).self) { group in
            for index in 0..<sessions {
                group.addTask {
                    let client = try await TestClient.connect(port: proxy.port, timeout: .seconds(60))
                    for _ in 0...index % 7 { try await client.send("increment", in: "counter") }
                    try await client.waitUntil(
                        "/count", in: "counter", equals: .string("Count: \(index % 7 + 1)"), timeout: .seconds(60))
                    return (index, client)
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        let tokens = clients.mapValues(\.observation.mirror.token)
        #expect(Set(tokens.values).count == sessions)

        proxy.cutAll()
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients.values {
                group.addTask { try await client.resume(attempts: 5, timeout: .seconds(120)) }
            }
            try await group.waitForAll()
        }
        let stormTime = ContinuousClock.now - start

        for (index, client) in clients {
            let mirror = client.observation.mirror
            #expect(mirror.token == tokens[index] && mirror.resumes == 1, "session \(index) resumed once, as itself")
            #expect(client.value(at: "/count", in: "counter") == .string("Count: \(index % 7 + 1)"))
            #expect(mirror.errors.isEmpty && mirror.violations.isEmpty)
        }
        #expect(server.sessionCount == sessions, "no session was made anew")
        // Each resumed session is live: one more click round-trips.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, client) in clients {
                group.addTask {
                    try await client.send("increment", in: "counter")
                    try await client.waitUntil(
                        "/count", in: "counter", equals: .string("Count: \(index % 7 + 2)"), timeout: .seconds(60))
                }
            }
            try await group.waitForAll()
        }
        print(
            "T25 reconnect storm: \(sessions) sessions cut at once, all resumed as themselves in \(stormTime); "
                + "\(server.refusedConnectionCount) connections refused; proxy: \(proxy.statistics)")
    }
}
