import FootlightServer
import FootlightTesting
import Testing

/// Error details (stage names, event lists, expected types) reach clients only when
/// asked for; by default they get the code and a generic message, and the log gets
/// the details.
@Suite(.timeLimit(.minutes(1)))
struct ErrorDetailTests {
    @Test("By default a refusal carries its code and a generic message; the details are logged")
    func detailsOffByDefault() async throws {
        let log = LogCapture()
        let server = try TestServer.start(configure: { $0.logger = log.logger }, stages: ProbeScenes.all)
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)

        try await client.send("shout", in: "echo", value: "x")
        var error = try await client.waitForError("unknown-event")
        #expect(error.message == ProtocolError.Code.unknownEvent.summary)
        #expect(!error.message.contains("echo") && !error.message.contains("say"))
        #expect(error.eventNumber == 1)

        try client.sendRaw(#"{"t":"event","n":2,"stage":"secret-stage","name":"say"}"#)
        error = try await client.waitForError("unknown-stage")
        #expect(error.message == ProtocolError.Code.unknownStage.summary)

        try client.sendRaw("{not json")
        error = try await client.waitForError("malformed-json")
        #expect(error.message == ProtocolError.Code.malformedJSON.summary)

        let logged = log.messages
        #expect(logged.contains { $0.contains(#"stage "echo" has no event "shout""#) })
        #expect(logged.contains { $0.contains(#""secret-stage""#) })
    }

    @Test("With details on, the client is told what was wrong")
    func detailsOn() async throws {
        let server = try TestServer.start(configure: { $0.sendsErrorDetails = true }, stages: ProbeScenes.all)
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        try await client.send("shout", in: "echo", value: "x")
        let error = try await client.waitForError("unknown-event")
        #expect(error.message == #"stage "echo" has no event "shout" (it accepts "say")"#)
    }
}
