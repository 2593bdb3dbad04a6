import FootlightJSON
import FootlightTesting

/// The server's own view of a session: a fresh socket, straight to the server, joins
/// with the session's token and sequence number 0, so the server answers with a
/// snapshot of every stage. (The session's old connection is closed with 4000.)
enum ServerView {
    static func documents(ofSession token: String, port: Int) async throws -> (
        documents: [String: JSON], mirror: ClientMirror
    ) {
        let view = try await TestClient.connect(port: port, join: false)
        defer { view.close() }
        try view.sendRaw(#"{"t":"join","v":1,"token":"\#(token)","seq":0}"#)
        try await view.wait("the server's snapshot of the session", timeout: .seconds(30)) {
            $0.mirror.token == token && $0.mirror.isReady && !$0.mirror.documents.isEmpty
        }
        let mirror = view.observation.mirror
        return (mirror.documents, mirror)
    }
}
