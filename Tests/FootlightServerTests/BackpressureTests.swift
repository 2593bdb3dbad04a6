import FootlightJSON
import FootlightServer
import FootlightTesting
import Testing

@Suite(.timeLimit(.minutes(2)))
struct BackpressureTests {
    @Test("A slow reader does not grow the server's buffers; it converges when it reads again")
    func slowReader() async throws {
        let highWater = 64 << 10
        let server = try TestServer.start(
            configure: { $0.sessionLimits.outboxHighWater = highWater }, stages: ProbeScenes.all)
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        client.pauseReading()
        // 10,000 updates of ~2 KB each: 20 MB if every one were queued.
        try await client.send("start", in: "ticker", value: 10_000)
        // The socket backs up once the kernel's buffers are full; from then on the
        // session must hold back instead of queueing.
        try await waitFor("the socket to back up", timeout: .seconds(30)) { server.peakUnsentBytes >= highWater / 2 }
        try await Task.sleep(for: .seconds(1))
        let peak = server.peakUnsentBytes
        #expect(peak <= highWater + 8 << 10, "peak \(peak) bytes waiting")
        client.resumeReading()
        try await client.waitUntil("/tick", in: "ticker", equals: 10_000, timeout: .seconds(60))
        let patches = client.observation.mirror.counts["patch", default: 0]
        #expect(patches < 10_000, "changes made while the client was behind were coalesced (\(patches) patches)")
        #expect(client.observation.mirror.violations.isEmpty)
        #expect(server.peakUnsentBytes <= highWater + 8 << 10)
    }
}
