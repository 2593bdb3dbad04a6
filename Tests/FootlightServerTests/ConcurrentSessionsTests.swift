import FootlightJSON
import FootlightProbes
import FootlightServer
import FootlightTesting
import Testing

@Suite(.timeLimit(.minutes(3)))
struct ConcurrentSessionsTests {
    @Test("200 concurrent sessions each click their own counter 50 times: every one ends at exactly 50")
    func twoHundredSessions() async throws {
        let server = try TestServer.start { _ in [CounterScene.makeStage()] }
        defer { server.shutdown() }
        let clients = try await withThrowingTaskGroup(of: TestClient.self) { group in
            for _ in 0..<200 { group.addTask { try await TestClient.connect(to: server, timeout: .seconds(30)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(clients.compactMap { $0.observation.mirror.token }).count == 200, "every session has its own token")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients {
                group.addTask {
                    for _ in 0..<50 { try await client.send("increment", in: "counter") }
                    try await client.waitUntil("/count", in: "counter", equals: "Count: 50", timeout: .seconds(60))
                    try await client.waitUntilAcknowledged(timeout: .seconds(30))
                }
            }
            try await group.waitForAll()
        }
        for client in clients {
            #expect(client.value(at: "/count", in: "counter") == "Count: 50")
            #expect(client.observation.mirror.violations.isEmpty)
            #expect(client.observation.mirror.errors.isEmpty)
        }
        #expect(server.sessionCount == 200)
    }
}
