import FootlightProbes
import FootlightServer
import FootlightTesting
import Testing

/// Resume tokens are signed: only a token the server minted, unaltered, resumes its
/// session. Anything else is refused as unknown and gets a fresh session.
@Suite(.timeLimit(.minutes(1)))
struct ResumeTokenTests {
    /// Joins with `token` and returns the token of the session the server then gave.
    func join(_ server: Server, token: String) async throws -> (error: String?, token: String) {
        let client = try await TestClient.connect(port: server.port, join: false)
        defer { client.close() }
        try client.sendRaw(#"{"t":"join","v":1,"token":"\#(token)","seq":0}"#)
        try await client.wait("a session") { $0.mirror.isReady && !$0.mirror.documents.isEmpty }
        return (client.observation.mirror.errors.first?.code, try #require(client.observation.mirror.token))
    }

    @Test("A forged or altered token is refused as unknown and gets a fresh session; the real one resumes")
    func forgedTokens() async throws {
        let server = try TestServer.start { _ in [CounterScene.makeStage()] }
        defer { server.shutdown() }
        let owner = try await TestClient.connect(to: server)
        let token = try #require(owner.observation.mirror.token)
        let parts = token.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let (id, mac) = (parts[1], parts[2])
        let other = try #require(try await TestClient.connect(to: server).observation.mirror.token)
        let otherMAC = String(other.split(separator: ".")[2])

        func flipped(_ text: String, at index: Int) -> String {
            var characters = Array(text)
            characters[index] = characters[index] == "0" ? "1" : "0"
            return String(characters)
        }
        let forgeries = [
            id,  // the bare id, as tokens used to be
            "v1.\(id).",  // no MAC
            "v1.\(id).\(String(repeating: "0", count: 64))",  // a made-up MAC
            "v1.\(id).\(otherMAC)",  // another session's MAC
            "v1.\(flipped(id, at: 0)).\(mac)",  // the id altered
            "v1.\(id).\(flipped(mac, at: 63))",  // the MAC altered in its last digit
            "v2.\(id).\(mac)",  // another version
            "v1.\(id).\(mac.uppercased())",  // another spelling
            token + "0",  // longer
            String(token.dropLast()),  // truncated
        ]
        let sessionsBefore = server.sessionCount
        for forged in forgeries where forged != token {
            let result = try await join(server, token: forged)
            #expect(result.error == "unknown-session", "\(forged) must be refused")
            #expect(result.token != token, "\(forged) must not resume the session")
        }
        #expect(server.sessionCount == sessionsBefore + forgeries.count, "each forgery got a fresh session")

        let resumed = try await join(server, token: token)
        #expect(resumed.error == nil && resumed.token == token, "the real token still resumes")
    }

    @Test("Tokens are signed with the configured key, and a key too short is refused")
    func configuredKey() async throws {
        let key = [UInt8](repeating: 7, count: 32)
        let first = try TestServer.start(configure: { $0.resumeTokenKey = key }) { _ in [CounterScene.makeStage()] }
        defer { first.shutdown() }
        let random = try TestServer.start { _ in [CounterScene.makeStage()] }
        defer { random.shutdown() }
        // The same session id signed under two keys gives two MACs; each server knows only its own.
        let signed = try #require(try await TestClient.connect(to: first).observation.mirror.token)
        let resumed = try await join(first, token: signed)
        #expect(resumed.error == nil && resumed.token == signed)
        #expect(try await join(random, token: signed).error == "unknown-session")

        let error = #expect(throws: ServerError.self) {
            try TestServer.start(configure: { $0.resumeTokenKey = [1, 2, 3] }) { _ in [] }
        }
        #expect(error?.description.contains("at least 32") == true)
    }
}
