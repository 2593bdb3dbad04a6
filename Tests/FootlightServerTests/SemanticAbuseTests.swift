import FootlightJSON
import FootlightProbes
import FootlightServer
import FootlightTesting
import Testing

/// RELIABILITY.md T18: 500 seeded examples of semantic abuse mixed with valid events
/// through one live session. Every bad event is answered with an error and consumes its
/// number; malformed messages are refused without one; valid events apply exactly once.
@Suite(.timeLimit(.minutes(1)))
struct SemanticAbuseTests {
    @Test("500 abusive and valid messages: errors for the bad, exactly-once for the good, the session goes on")
    func abuse() async throws {
        let server = try TestServer.start(
            configure: {
                $0.sessionLimits.eventsPerSecond = 1_000_000
                $0.sessionLimits.eventBurst = 1_000_000
            }, stages: ProbeScenes.all)
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        var random = SeededGenerator(seed: 18)
        var valid = 0
        var refusedEvents = 0
        var refusedMessages = 0
        let huge = String(repeating: "ü", count: 10_000)
        let deep = String(repeating: "[", count: 3000) + String(repeating: "]", count: 3000)
        // Refusals waiting to be sent are bounded (16 per session; a flood loses the oldest,
        // logged), so each abusive message waits for its answer before the next.
        @Sendable func answered(_ observation: TestClient.Observation) -> Int {
            observation.mirror.errors.reduce(0) { $0 + max(1, $1.eventCount) }
        }
        for index in 0..<500 {
            let refusalsBefore = refusedEvents + refusedMessages
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1:
                try await client.send("say", in: "echo", value: .string("ok \(index)"))
                valid += 1
            case 2:
                try await client.send("say", in: "echo", value: .string(huge))  // long, but a string: valid
                valid += 1
            case 3:
                let wrong: [JSON] = [.int(7), .double(1e308), .bool(true), .null, ["say": "x"], ["x"], .double(-0.0)]
                try await client.send("say", in: "echo", value: wrong.randomElement(using: &random)!)
                refusedEvents += 1
            case 4:
                try await client.send("say", in: "stage-\(index)", value: "x")  // no such stage
                refusedEvents += 1
            case 5:
                try await client.send("explode", in: "echo")  // no such event
                refusedEvents += 1
            case 6:
                try await client.send("@back", in: "echo")  // a root: nothing to go back from, no error
            case 7:
                try client.sendRaw(#"{"t":"event","n":1e999,"stage":"echo","name":"say","value":"x"}"#)
                refusedMessages += 1
            case 8:
                try client.sendRaw(deep)
                refusedMessages += 1
            default:
                try client.sendRaw(#"{"t":"event","stage":"echo","name":"say","value":"x"}"#)  // no number
                refusedMessages += 1
            }
            let expected = refusedEvents + refusedMessages
            if expected > refusalsBefore {
                try await client.wait("the answer to message \(index)") { answered($0) >= expected }
            }
        }
        try await client.waitUntilAcknowledged()
        let expectedValid = valid
        try await client.waitUntil("/count", in: "echo", equals: .int(Int64(expectedValid)))
        let errors = client.observation.mirror.errors
        let eventErrors = errors.filter { ["unknown-stage", "unknown-event", "bad-value"].contains($0.code) }
        #expect(eventErrors.reduce(0) { $0 + $1.eventCount } == refusedEvents)
        let messageErrors = errors.filter { ["malformed-json", "bad-message"].contains($0.code) }
        #expect(messageErrors.count == refusedMessages)
        #expect(errors.count == eventErrors.count + messageErrors.count, "no other errors: \(errors.map(\.code))")
        #expect(client.observation.mirror.violations.isEmpty)

        // The session goes on.
        try await client.send("increment", in: "counter")
        try await client.waitUntil("/count", in: "counter", equals: "Count: 1")
        #expect(server.sessionCount == 1)
    }
}
