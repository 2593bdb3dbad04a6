import Footlight
import FootlightProbes
import FootlightServer
import FootlightTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1)))
struct LifecycleTests {
    @Test("Shutdown tells every client (bye, close 1001) and closes every socket")
    func gracefulShutdown() async throws {
        let server = try TestServer.start { _ in [CounterScene.makeStage()] }
        let clients = [try await TestClient.connect(to: server), try await TestClient.connect(to: server)]
        server.shutdown()
        for client in clients {
            let close = try await client.waitForClose()
            #expect(close?.code == 1001)
            #expect(client.observation.mirror.saidBye)
        }
        #expect(server.openConnectionCount == 0)
        #expect(server.sessionCount == 0)
    }

    @Test("A Director that blocks for 3 s delays the other sessions of its loop by less than 100 ms")
    func blockingDirectorOnSharedLoop() async throws {
        // One loop, so both sessions share it: the napping turn overruns the budget, the
        // loop goes on on a new thread, and the napping session moves to a queue. The
        // times are the server's (the test clients share one loop of their own, which the
        // other suites running beside this one may keep busy).
        let log = ProbeScenes.NapLog()
        let server = try TestServer.start(configure: { $0.loops = 1 }) { _ in
            [ProbeScenes.nappingCounter(seconds: 3, log: log)]
        }
        defer { server.shutdown() }
        let sleeper = try await TestClient.connect(to: server)
        let other = try await TestClient.connect(to: server)
        // Both posted at once: they leave the test clients' loop back to back.
        try await sleeper.send("nap", in: "counter")
        try await other.send("logged-increment", in: "counter")
        try await other.waitUntilAcknowledged()
        // The other event may be handled before the nap starts (both arrive together);
        // the hand-off follows the nap's start either way.
        try await waitFor("the loop to be handed off", timeout: .seconds(10)) { server.lastLoopHandOff != nil }
        let times = log.snapshot
        let napStart = try #require(times.napStarts.first)
        let handOff = try #require(server.lastLoopHandOff, "the loop was handed off")
        #expect(handOff - napStart < .milliseconds(100), "the loop stalled for \(handOff - napStart)")
        #expect(server.loopHandOffCount == 1)
        let handled = try #require(times.increments.first)
        #expect(
            times.napEnds.isEmpty || handled < times.napEnds[0], "the other session was not kept waiting for the nap")
        // The nap ends on the thread that was left behind; its session goes on from its queue.
        try await sleeper.waitUntilAcknowledged()
        try await sleeper.send("increment", in: "counter")
        try await sleeper.waitUntil("/count", in: "counter", equals: "Count: 1")
        try await other.send("increment", in: "counter")
        try await other.waitUntil("/count", in: "counter", equals: "Count: 1")
    }

    /// The counter on a server that pings after 1 s of silence and hangs up after 3 s
    /// (a peer has 2 s to answer the ping: 1 s was too little for a busy machine).
    static func counterPingingAfterOneSecond() throws -> Server {
        try TestServer.start(
            configure: {
                $0.pingAfterIdleSeconds = 1
                $0.hangUpAfterIdleSeconds = 3
            }, stages: { _ in [CounterScene.makeStage()] })
    }

    @Test("A client that stops answering pings is hung up on; its session is kept for a resume")
    func idleHangUp() async throws {
        let server = try Self.counterPingingAfterOneSecond()
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        client.pauseReading()  // pings go unread, so no pong comes back
        // The paused client cannot notice the hang-up (it polls for nothing); the
        // server's side shows it: the session moves to retention.
        try await waitFor("the server to hang up", timeout: .seconds(8)) { server.retainedSessionCount == 1 }
        #expect(server.openConnectionCount == 0)
        client.resumeReading()
        try await client.resume()
        try await client.send("increment", in: "counter")
        try await client.waitUntil("/count", in: "counter", equals: "Count: 1")
    }

    @Test("A silent client that answers pings keeps its connection past the hang-up time")
    func pongsKeepAlive() async throws {
        let server = try Self.counterPingingAfterOneSecond()
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        // Silent for twice the hang-up time: only the pongs to the server's pings (sent
        // by the client library) are heard.
        try await Task.sleep(for: .seconds(6.5))
        #expect(server.openConnectionCount == 1)
        #expect(server.retainedSessionCount == 0)
        try await client.send("increment", in: "counter")
        try await client.waitUntil("/count", in: "counter", equals: "Count: 1")
    }
}

@Suite(.timeLimit(.minutes(1)))
struct StuckShutdownTests {
    @Test("Shutdown keeps to its drain timeout when a Director is stuck, and counts the sessions still ending")
    func stuckDirector() async throws {
        let logs = LogCapture()
        let naps = ProbeScenes.NapLog()
        // A nap far longer than the test waits for it to start, on a machine as busy as may be.
        let server = try TestServer.start(configure: { $0.logger = logs.logger }) { _ in
            [ProbeScenes.nappingCounter(seconds: 20, log: naps)]
        }
        let client = try await TestClient.connect(to: server)
        let idle = try await TestClient.connect(to: server)
        try await client.send("nap", in: "counter")
        let napping = ContinuousClock.now + .seconds(15)
        while naps.snapshot.napStarts.isEmpty, ContinuousClock.now < napping {
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(!naps.snapshot.napStarts.isEmpty, "the Director never started its nap")
        let start = ContinuousClock.now
        server.shutdown(drainTimeout: .milliseconds(500))
        #expect(ContinuousClock.now - start < .seconds(3))
        #expect(naps.snapshot.napEnds.isEmpty, "still napping when the shutdown went on")
        // The stuck one at least (the idle one too, should its loop not have got to it in time).
        #expect(
            logs.contains("with 1 of 2 sessions still ending") || logs.contains("with 2 of 2 sessions still ending"),
            "\(logs.messages)")
        _ = idle
    }

    @Test("A shutdown that does not wait (no drain timeout) blames no Director")
    func noWait() async throws {
        let logs = LogCapture()
        let server = try TestServer.start(configure: { $0.logger = logs.logger }) { _ in [CounterScene.makeStage()] }
        var clients: [TestClient] = []
        for _ in 0..<20 { clients.append(try await TestClient.connect(to: server)) }
        server.shutdown(drainTimeout: .zero)
        #expect(!logs.contains("did not return in time"), "\(logs.messages)")
        #expect(logs.contains("shutting down"))
    }
}
