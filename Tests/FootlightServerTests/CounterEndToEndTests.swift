import FootlightJSON
import FootlightProbes
import FootlightServer
import FootlightTesting
import Testing

@Suite(.timeLimit(.minutes(2)))
struct CounterEndToEndTests {
    @Test("A click travels browser event → director → patch over a real socket")
    func oneClick() async throws {
        let server = try TestServer.start { _ in [CounterScene.makeStage()] }
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        #expect(client.value(at: "/count", in: "counter") == "Count: 0")
        try await client.send("increment", in: "counter")
        try await client.waitUntil("/count", in: "counter", equals: "Count: 1")
        try await client.waitUntilAcknowledged()
        #expect(client.observation.mirror.violations.isEmpty)
    }
}
