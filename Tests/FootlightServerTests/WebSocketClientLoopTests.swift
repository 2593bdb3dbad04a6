import FootlightServer
import Testing

/// A `WebSocketClientLoop` its caller services, as the load generator does: the wake
/// timer, writes from `writable(_:)`, and connections reported and released exactly
/// once however they end.
@Suite(.timeLimit(.minutes(1)))
struct WebSocketClientLoopTests {
    @Test("A loop its caller services: serviceOnce() returns with no traffic, writable(_:) writes, replies arrive")
    func callerServicedLoop() async throws {
        let server = try RawWebSocketServer.start { peer, _ in
            while let frame = peer.readFrame() {
                peer.frame(opcode: frame.opcode, payload: frame.payload, masked: false)
                if frame.opcode == 0x8 { return }
            }
        }
        let outcome = try PullingClient.run(port: server.port, messages: ["first", "second", "third"])
        try await server.finish()
        #expect(outcome.idleServiceSeconds < 0.5)
        #expect(outcome.replies == ["first", "second", "third"])
        #expect(outcome.ended == .some(nil))
        #expect(outcome.connectionFreed)
    }

    /// Failing inside `lws_client_connect_via_info` (an empty host) or later (a port
    /// nothing listens on) takes different paths to the one release.
    @Test(
        "A failed connection ends once, with its error, and is freed",
        arguments: [("", WebSocketClientError.connectNotStarted), ("127.0.0.1", .connectionFailed)])
    func failedConnectionIsFreed(host: String, expected: WebSocketClientError) throws {
        let loop = try WebSocketClientLoop()
        let recorder = EndRecorder()
        weak var released: WebSocketClientConnection?
        do {
            let connection = WebSocketClientConnection(on: loop, delegate: recorder)
            released = connection
            // Port 1: nothing listens there.
            connection.connect(host: host, port: 1, path: "/")
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while recorder.ends.isEmpty, ContinuousClock.now < deadline { try loop.serviceOnce() }
        loop.stop()
        #expect(recorder.ends == [expected])
        #expect(released == nil, "libwebsockets released the connection exactly once")
    }
}

/// The load generator's way of using the client core, in small: a loop serviced on the
/// calling thread, and messages built and written in `writable(_:)`, one at a time.
private final class PullingClient: WebSocketClientDelegate {
    struct Outcome {
        var idleServiceSeconds = 0.0
        var replies: [String] = []
        var ended: WebSocketClientError??
        var connectionFreed = false
    }

    private var toSend: [String]
    private var outcome = Outcome()

    private init(messages: [String]) {
        toSend = messages
    }

    /// Connects to `port`, writes `messages` one per reply, closes after the last
    /// reply, and services the loop on this thread until the connection ends.
    static func run(port: Int, messages: [String]) throws -> Outcome {
        let client = PullingClient(messages: messages)
        let loop = try WebSocketClientLoop()
        weak var released: WebSocketClientConnection?
        let start = ContinuousClock.now
        try loop.serviceOnce()
        let idle = ContinuousClock.now - start
        client.outcome.idleServiceSeconds = Double(idle.components.seconds) + Double(idle.components.attoseconds) / 1e18
        do {
            let connection = WebSocketClientConnection(on: loop, delegate: client)
            released = connection
            connection.connect(host: "127.0.0.1", port: port, path: "/", subprotocol: "test.v1")
            connection.requestWritable()
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while client.outcome.ended == nil, ContinuousClock.now < deadline { try loop.serviceOnce() }
        loop.stop()
        client.outcome.connectionFreed = released == nil
        return client.outcome
    }

    func opened(_ connection: WebSocketClientConnection) {}

    func writable(_ connection: WebSocketClientConnection) {
        guard !toSend.isEmpty else { return }
        var text = toSend.removeFirst()
        _ = text.withUTF8 { connection.write(UnsafeRawBufferPointer($0)) }
    }

    func received(_ message: UnsafeRawBufferPointer, isBinary: Bool, on connection: WebSocketClientConnection) {
        outcome.replies.append(String(decoding: message, as: UTF8.self))
        if toSend.isEmpty {
            connection.close(code: 1000, reason: "done")
        } else {
            connection.requestWritable()
        }
    }

    func ended(_ connection: WebSocketClientConnection, error: WebSocketClientError?) {
        outcome.ended = .some(error)
    }
}

/// Records only how connections end.
private final class EndRecorder: WebSocketClientDelegate {
    var ends: [WebSocketClientError?] = []
    func opened(_ connection: WebSocketClientConnection) {}
    func received(_ message: UnsafeRawBufferPointer, isBinary: Bool, on connection: WebSocketClientConnection) {}
    func ended(_ connection: WebSocketClientConnection, error: WebSocketClientError?) { ends.append(error) }
}
