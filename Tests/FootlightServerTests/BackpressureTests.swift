import Footlight
import FootlightJSON
import FootlightProbes
import FootlightServer
import FootlightTesting
import Foundation
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
        let token = try #require(client.observation.mirror.token)
        let view = try await ServerView.documents(ofSession: token, port: server.port)
        #expect(client.document(of: "ticker") == view.documents["ticker"], "the replica equals the server's document")
    }
}

@Suite(.timeLimit(.minutes(2)))
struct InboundBackpressureTests {
    @Test("A client flooding a stuck session is stopped being read; nothing is lost once it catches up")
    func floodWhileDirectorIsStuck() async throws {
        let server = try TestServer.start(
            configure: {
                $0.maximumQueuedMessages = 64
                $0.sessionLimits.eventsPerSecond = 1_000_000
                $0.sessionLimits.eventBurst = 1_000_000
            },
            stages: { _ in [ProbeScenes.nappingCounter(seconds: 1)] })
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        try await client.send("nap", in: "counter")
        for _ in 0..<3000 { try await client.send("increment", in: "counter") }
        try await client.waitUntil("/count", in: "counter", equals: "Count: 3000", timeout: .seconds(60))
        try await client.waitUntilAcknowledged()
        #expect(server.peakQueuedMessages <= 64 + 8, "peak \(server.peakQueuedMessages) messages queued")
        #expect(client.observation.mirror.errors.isEmpty)
    }

    @Test("A client that never reads cannot grow the server's buffers by sending garbage or pings")
    func garbageWithoutReading() async throws {
        let highWater = 16 << 10
        let log = ProbeScenes.NapLog()
        let server = try TestServer.start(
            configure: {
                $0.sessionLimits.outboxHighWater = highWater
                $0.sendsErrorDetails = true  // longer error messages: the socket backs up sooner
            }, stages: { _ in [ProbeScenes.nappingCounter(seconds: 0, log: log)] })
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        client.pauseReading()
        for index in 0..<20_000 { try client.sendRaw(index.isMultiple(of: 10) ? #"{"t":"ping"}"# : "x") }
        // An event after the garbage. Either the server reads everything (the session
        // handles the event), or, its answers choking the socket, it stops reading this
        // client (TCP backpressure: its count of messages read stands still). Both are
        // seen on the server's side, so the wait depends neither on this client reading
        // nor on how fast a busy machine gets there.
        try await client.send("logged-increment", in: "counter")
        var lastCount = -1
        var stillSince = ContinuousClock.now
        try await waitFor("the server to read everything or stop reading", timeout: .seconds(90)) {
            if !log.snapshot.increments.isEmpty { return true }
            let count = server.receivedMessageCount
            if count != lastCount { (lastCount, stillSince) = (count, .now) }
            return ContinuousClock.now - stillSince > .seconds(3)
        }
        #expect(server.peakUnsentBytes <= highWater + 1024, "peak \(server.peakUnsentBytes) bytes waiting")
        // The session goes on. The server may have hung up on a client whose socket stayed
        // choked for long: come back as a page would, by resuming the session.
        client.resumeReading()
        client.drop()
        try await client.resume()
        try await client.send("increment", in: "counter")
        try await client.waitUntil("/count", in: "counter", equals: "Count: 1", timeout: .seconds(60))
    }
}
