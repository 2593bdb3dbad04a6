import Footlight
import FootlightJSON
import FootlightProbes
import FootlightServer
import FootlightTesting
import Testing

/// Every class of bad input gets its error code; the session keeps working and other
/// sessions are unaffected.
@Suite(.timeLimit(.minutes(2)))
struct BadInputTests {
    /// After the bad input, the same session still round-trips an event, and so does a
    /// bystander session.
    func expectStillWorks(_ client: TestClient, bystander: TestClient) async throws {
        let before = client.value(at: "/count", in: "echo")?.intValue ?? -1
        try await client.send("say", in: "echo", value: "still here")
        try await client.waitUntil("/count", in: "echo", equals: .int(before + 1))
        let bystanderCount = bystander.value(at: "/count", in: "echo")?.intValue ?? -1
        try await bystander.send("say", in: "echo", value: "unaffected")
        try await bystander.waitUntil("/count", in: "echo", equals: .int(bystanderCount + 1))
        #expect(bystander.observation.mirror.errors.isEmpty)
    }

    @Test(
        "Malformed or misshapen messages are answered with their error code",
        arguments: [
            ("{not json", "malformed-json"),
            (#"{"t":"event","n":1,"n":2}"#, "malformed-json"),
            (String(repeating: "[", count: 100) + String(repeating: "]", count: 100), "malformed-json"),
            ("[1,2,3]", "bad-message"),
            (#"{"type":"event"}"#, "bad-message"),
            (#"{"t":"teleport"}"#, "bad-message"),
            (#"{"t":"event","n":"one","stage":"echo","name":"say"}"#, "bad-message"),
            (#"{"t":"event","n":0,"stage":"echo","name":"say"}"#, "bad-message"),
            (#"{"t":"ack","seq":-1}"#, "bad-message"),
            (#"{"t":"join","v":2}"#, "unsupported-version"),
            (#"{"t":"join","v":1}"#, "already-joined"),
            (#"{"t":"ack","seq":999999}"#, "bad-ack"),
        ])
    func malformed(_ text: String, _ code: String) async throws {
        let server = try TestServer.start(stages: ProbeScenes.all)
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        let bystander = try await TestClient.connect(to: server)
        try client.sendRaw(text)
        let error = try await client.waitForError(code)
        #expect(!error.message.isEmpty)
        try await expectStillWorks(client, bystander: bystander)
    }

    @Test("Unknown stage, unknown event and wrong value type are refused, named, and consume their number")
    func semanticErrors() async throws {
        let server = try TestServer.start(configure: { $0.sendsErrorDetails = true }, stages: ProbeScenes.all)
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        let bystander = try await TestClient.connect(to: server)

        try await client.send("say", in: "nowhere", value: "x")
        var error = try await client.waitForError("unknown-stage")
        #expect(error.message.contains("\"nowhere\"") && error.eventNumber == 1)

        try await client.send("shout", in: "echo", value: "x")
        error = try await client.waitForError("unknown-event")
        #expect(error.message == #"stage "echo" has no event "shout" (it accepts "say")"#)

        try await client.send("say", in: "echo", value: 42)
        error = try await client.waitForError("bad-value")
        #expect(error.message.contains("expected a string, got a number"))
        try await client.waitUntilAcknowledged()
        #expect(client.value(at: "/count", in: "echo") == 0, "no refused event reached the director")
        try await expectStillWorks(client, bystander: bystander)
    }

    @Test("An event before join is refused with not-joined")
    func eventBeforeJoin() async throws {
        let server = try TestServer.start(stages: ProbeScenes.all)
        defer { server.shutdown() }
        let client = try await TestClient.connect(port: server.port, join: false)
        try client.sendRaw(#"{"t":"event","n":1,"stage":"echo","name":"say","value":"x"}"#)
        let error = try await client.waitForError("not-joined")
        #expect(error.eventNumber == 1)
    }

    @Test("A message over the size limit closes with 1009 before it is buffered; the session resumes")
    func oversize() async throws {
        let server = try TestServer.start(configure: { $0.maximumMessageBytes = 1024 }, stages: ProbeScenes.all)
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        let bystander = try await TestClient.connect(to: server)
        try client.sendRaw(
            #"{"t":"event","n":1,"stage":"echo","name":"say","value":""# + String(repeating: "a", count: 2000) + #""}"#)
        let close = try await client.waitForClose()
        #expect(close?.code == 1009)
        #expect(close?.reason.contains("limit 1024") == true)
        #expect(server.peakUnsentBytes < 1024, "nothing large was buffered or echoed")
        try await client.resume()
        try await expectStillWorks(client, bystander: bystander)
    }

    @Test("Too many events per second are refused with rate-limited; the rest apply exactly once")
    func rateLimit() async throws {
        let server = try TestServer.start(
            configure: {
                $0.sessionLimits.eventsPerSecond = 5
                $0.sessionLimits.eventBurst = 10
            }, stages: ProbeScenes.all)
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        let start = ContinuousClock.now
        for index in 0..<30 { try await client.send("say", in: "echo", value: .string("\(index)")) }
        try await client.waitUntilAcknowledged()
        // The error for a refused run may follow the acknowledgement in its own frame.
        try await client.wait("every event applied or refused") { observation in
            let refused = observation.mirror.errors.filter { $0.code == "rate-limited" }.reduce(0) {
                $0 + $1.eventCount
            }
            let applied = observation.mirror.documents["echo"]?["count"]?.intValue ?? 0
            return Int(applied) + refused == 30
        }
        // The bucket refills at 5 per second while the events are on their way: the bound
        // follows from the time this run took, so a slow machine cannot fail the test.
        let elapsed = ContinuousClock.now - start
        let refill = Int((Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * 5) + 1
        let refused = client.observation.mirror.errors.filter { $0.code == "rate-limited" }.reduce(0) {
            $0 + $1.eventCount
        }
        let applied = client.value(at: "/count", in: "echo")?.intValue ?? -1
        #expect(refused > 0)
        #expect(Int(applied) <= 10 + refill, "at most the burst (10) plus what refilled in \(elapsed) gets through")
        #expect(Int(applied) + refused == 30, "every event is either applied once or refused")
    }

    @Test("Ping is answered with pong")
    func heartbeat() async throws {
        let server = try TestServer.start(stages: ProbeScenes.all)
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        try client.sendRaw(#"{"t":"ping"}"#)
        try await client.wait("a pong") { $0.mirror.counts["pong"] == 1 }
    }
}

extension JSON {
    var intValue: Int64? {
        if case .int(let value) = self { return value }
        return nil
    }
}

@Suite(.timeLimit(.minutes(1)))
struct BadSlotValueTests {
    @Test("A Director output JSON cannot hold is reported to the page with the slot's name")
    func badSlotValue() async throws {
        let server = try TestServer.start(configure: { $0.sendsErrorDetails = true }) { _ in
            let poison = PassthroughSubject<Void, Never>()
            let stage = Stage(name: "chart")
            stage.bind(poison.map { JSON.double(.nan) }.prepend(1), to: "value")
            stage.on("poison", send: poison)
            return [stage]
        }
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        try await client.send("poison", in: "chart")
        let error = try await client.waitForError("bad-slot-value")
        #expect(error.message.contains(#"slot "value" of stage "chart""#))
        #expect(client.value(at: "/value", in: "chart") == 1)
    }
}
