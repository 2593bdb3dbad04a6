import Footlight
import FootlightJSON
import FootlightServer
import FootlightTesting
import Testing

/// A `restore` the server cannot take, over a raw socket: the join it came with stands.
@Suite(.timeLimit(.minutes(1)))
struct RestoreAbuseTests {
    @Test("A join with a malformed restore still joins: bad-message, then a new session at the page's path")
    func malformedRestore() throws {
        let server = try TestServer.start { environment in
            let stage = Stage(name: "home")
            stage.bind(Just(environment.request.path), to: "path")
            return [stage]
        }
        defer { server.shutdown() }
        let socket = try RawWebSocket(port: server.port)
        socket.write(RawWebSocket.handshake(port: server.port))
        try #require(socket.readStatus() == 101)
        let stages = Array(repeating: #"{"template":"home"}"#, count: 17).joined(separator: ",")
        let join = #"{"t":"join","v":1,"token":"v1.unknown","seq":4,"path":"/deep","restore":[\#(stages)]}"#
        socket.frame(opcode: 0x1, payload: Array(join.utf8))
        var received: [JSON] = []
        while received.count < 4, let (opcode, payload) = socket.readFrame() {
            if opcode == 0x1, let message = try? JSON.parse(payload) { received.append(message) }
        }
        // Without its restore, the unknown token is reported as usual.
        #expect(received.map { $0["t"] } == ["error", "error", "joined", "mount"])
        #expect(received.prefix(2).map { $0["code"] } == ["bad-message", "unknown-session"])
        #expect(received[2]["resumed"] == false)
        #expect(received[2]["rebuilt"] == nil, "the restore was left out")
        #expect(received.last?["doc"] == ["path": "/deep"])
    }
}
