import FootlightJSON
import FootlightProbes
import FootlightServer
import FootlightTesting
import Testing

@Suite(.timeLimit(.minutes(2)))
struct ResumeTests {
    @Test("Dropping the socket mid-stream and resuming loses no event and applies none twice")
    func dropAndResume() async throws {
        let server = try TestServer.start { _ in [CounterScene.makeStage()] }
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        for round in 0..<10 {
            for _ in 0..<5 { try await client.send("increment", in: "counter") }
            client.drop()  // mid-stream: some events and patches are still in flight
            for _ in 0..<3 { try await client.send("increment", in: "counter") }  // queued while down
            try await client.resume()
            try await client.waitUntil("/count", in: "counter", equals: .string("Count: \((round + 1) * 8)"))
        }
        try await client.waitUntilAcknowledged()
        #expect(client.observation.mirror.violations.isEmpty, "no patch out of order or failing")
        #expect(client.observation.mirror.resumes == 10)

        // The resumed mirror equals what a fresh mount of the same session shows.
        let fresh = try await TestClient.connect(port: server.port)
        #expect(fresh.value(at: "/count", in: "counter") == "Count: 0", "a new tab is a new session")
        let mirror = client.document(of: "counter")
        client.drop()
        try await client.resume()
        #expect(client.document(of: "counter") == mirror)
    }

    @Test("A resume after the replay buffer dropped what was missed gets a snapshot")
    func snapshotWhenGapIsGone() async throws {
        let server = try TestServer.start(configure: { $0.sessionLimits.replayMessages = 2 }) { _ in
            [CounterScene.makeStage()]
        }
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        client.pauseReading()
        for _ in 0..<20 {
            try await client.send("increment", in: "counter")
            try await Task.sleep(for: .milliseconds(2))
        }
        try await Task.sleep(for: .milliseconds(200))
        client.drop()
        client.resumeReading()
        try await client.resume()
        try await client.waitUntil("/count", in: "counter", equals: "Count: 20")
        #expect(client.observation.mirror.snapshots == 1, "the missed patches were no longer held")
        #expect(client.observation.mirror.violations.isEmpty)
    }

    @Test("A re-sent event (same number, after a resume) is acknowledged but applied once")
    func resentEventAppliedOnce() async throws {
        let server = try TestServer.start(stages: ProbeScenes.all)
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        try await client.send("say", in: "echo", value: "first")
        try await client.waitUntilAcknowledged()
        client.drop()
        try await client.resume()
        try client.sendRaw(#"{"t":"event","n":1,"stage":"echo","name":"say","value":"first"}"#)
        try await client.send("say", in: "echo", value: "second")
        try await client.waitUntil("/said", in: "echo", equals: "second")
        try await client.waitUntilAcknowledged()
        #expect(client.value(at: "/count", in: "echo") == 2, "event 1 was applied once, event 2 once")
        #expect(client.observation.mirror.errors.isEmpty)
    }

    @Test("Resuming with an unknown token starts a new session and says so; tokens carry a 128-bit id and a MAC")
    func unknownToken() async throws {
        let server = try TestServer.start { _ in [CounterScene.makeStage()] }
        defer { server.shutdown() }
        let client = try await TestClient.connect(port: server.port, join: false)
        try client.sendRaw(#"{"t":"join","v":1,"token":"00000000000000000000000000000000","seq":4}"#)
        let error = try await client.waitForError("unknown-session")
        #expect(error.message.contains("new one"))
        try await client.wait("a new session") { $0.mirror.isReady && !$0.mirror.documents.isEmpty }
        let token = try #require(client.observation.mirror.token)
        let parts = token.split(separator: ".")
        #expect(parts.count == 3 && parts[0] == "v1", "v1.<id>.<mac>, not \(token)")
        #expect(
            parts.dropFirst().map(\.count) == [32, 64] && parts.dropFirst().allSatisfy { $0.allSatisfy(\.isHexDigit) })
    }

    @Test("A session expires after its grace period; resuming it then gives a new session")
    func expiry() async throws {
        let server = try TestServer.start(configure: { $0.sessionLimits.retention = .milliseconds(300) }) { _ in
            [CounterScene.makeStage()]
        }
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        try await client.send("increment", in: "counter")
        try await client.waitUntil("/count", in: "counter", equals: "Count: 1")
        client.drop()
        try await client.wait("the socket to end") { !$0.isOpen }
        try await waitFor("the session to expire") { server.sessionCount == 0 }
        try await client.resume()
        #expect(client.observation.mirror.errors.map(\.code).contains("unknown-session"))
        #expect(client.value(at: "/count", in: "counter") == "Count: 0")
    }

    @Test("Two tabs resuming one session: the newer connection wins, the older is closed with 4000")
    func twoTabs() async throws {
        let server = try TestServer.start { _ in [CounterScene.makeStage()] }
        defer { server.shutdown() }
        let first = try await TestClient.connect(to: server)
        let token = try #require(first.observation.mirror.token)
        let second = try await TestClient.connect(port: server.port, join: false)
        try second.sendRaw(#"{"t":"join","v":1,"token":"\#(token)","seq":0}"#)
        let close = try await first.waitForClose()
        #expect(close?.code == 4000)
        try await second.wait("the resumed session") {
            $0.mirror.token == token && $0.mirror.isReady && !$0.mirror.documents.isEmpty
        }
        #expect(server.sessionCount == 1)
    }
}

/// Polls `condition` every 10 ms for up to `timeout`.
func waitFor(_ what: String, timeout: Duration = .seconds(10), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimeout(what: what) }
        try await Task.sleep(for: .milliseconds(10))
    }
}

struct WaitTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}
