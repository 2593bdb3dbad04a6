import Footlight
import FootlightServer
import FootlightTesting
import Testing

/// A Director that throws on an event ends only its own session (RELIABILITY.md T31).
@Suite(.timeLimit(.minutes(2)))
struct DirectorFailureTests {
    /// What the fragile Director throws.
    struct Meltdown: Error, CustomStringConvertible {
        var description: String { "the ledger is inconsistent" }
    }

    /// "fragile": event "say" counts in "/count"; the value "boom" makes the Director throw.
    static func fragileStage() -> Stage {
        let said = PassthroughSubject<String, Never>()
        let stage = Stage(name: "fragile")
        stage.bind(said.scan(0) { total, _ in total + 1 }.prepend(0), to: "count")
        stage.on("say") { (text: String) throws in
            if text == "boom" { throw Meltdown() }
            said.send(text)
        }
        return stage
    }

    @Test("A throwing Director ends its session with director-failed and 4001; 23 others round-trip")
    func isolation() async throws {
        let log = LogCapture()
        let server = try TestServer.start(configure: { $0.logger = log.logger }) { _ in [Self.fragileStage()] }
        defer { server.shutdown() }
        var clients: [TestClient] = []
        for _ in 0..<24 { clients.append(try await TestClient.connect(to: server)) }
        defer { for client in clients { client.close() } }
        for client in clients {
            try await client.send("say", in: "fragile", value: "hello")
            try await client.waitUntil("/count", in: "fragile", equals: 1)
        }

        let victim = clients[7]
        let token = try #require(victim.observation.mirror.token)
        try await victim.send("say", in: "fragile", value: "boom")
        let error = try await victim.waitForError("director-failed")
        #expect(error.eventNumber == 2)
        #expect(!error.message.contains("ledger"), "details stay in the log by default")
        #expect(try await victim.waitForClose()?.code == 4001)
        #expect(log.messages.contains { $0.contains("the ledger is inconsistent") && $0.contains(#""say""#) })
        try await waitFor("the failed session to be forgotten") { server.sessionCount == 23 }

        for (index, client) in clients.enumerated() where index != 7 {
            try await client.send("say", in: "fragile", value: "still here")
            try await client.waitUntil("/count", in: "fragile", equals: 2)
            #expect(client.observation.mirror.errors.isEmpty)
        }

        // The failed session's token names nothing any more: a resume starts afresh.
        let again = try await TestClient.connect(port: server.port, join: false)
        defer { again.close() }
        try again.sendRaw(#"{"t":"join","v":1,"token":"\#(token)","seq":0}"#)
        _ = try await again.waitForError("unknown-session")
        try await again.wait("a fresh session") { $0.mirror.isReady && !$0.mirror.documents.isEmpty }
        #expect(again.value(at: "/count", in: "fragile") == 0)
    }
}
