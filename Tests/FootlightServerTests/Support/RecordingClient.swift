import Footlight
import FootlightServer

/// One client-core connection on a client thread of its own, whose delegate records
/// everything that happens to it, for the client-core tests.
final class RecordingClient: WebSocketClientDelegate, Sendable {
    /// What the delegate heard, in order.
    enum Event: Equatable, Sendable {
        case opened
        case message([UInt8], isBinary: Bool)
        case peerClosed(code: UInt16, reason: String)
        case ended(WebSocketClientError?)
    }

    let thread: WebSocketClientThread
    private let connection: WebSocketClientThread.Bound<WebSocketClientConnection?>
    private let recorded = Locked<[Event]>([])

    /// Starts a client thread and connects to 127.0.0.1:`port` on it.
    init(port: Int, path: String = "/", origin: String? = nil, subprotocol: String? = "test.v1") throws {
        thread = try WebSocketClientThread(name: "client-core-test")
        connection = .init(nil, on: thread)
        thread.execute { [self] loop in
            let made = WebSocketClientConnection(on: loop, delegate: self)
            connection.value = made
            made.connect(host: "127.0.0.1", port: port, path: path, origin: origin, subprotocol: subprotocol)
        }
    }

    /// Stops the client thread (which ends the connection if it is still open).
    func stop() { thread.stop() }

    /// Everything heard so far.
    var events: [Event] { recorded.withLock { $0 } }

    /// The messages received so far.
    var messages: [(bytes: [UInt8], isBinary: Bool)] {
        events.compactMap {
            guard case .message(let bytes, let isBinary) = $0 else { return nil }
            return (bytes, isBinary)
        }
    }

    /// Whether the connection has ended.
    var hasEnded: Bool { events.contains { if case .ended = $0 { true } else { false } } }

    /// Runs `work` with the connection on the client thread.
    func on(_ work: @escaping @Sendable (WebSocketClientConnection) -> Void) {
        thread.execute { [connection] _ in connection.value.map(work) }
    }

    /// Waits until the connection has opened (throws when it ended instead).
    func waitUntilOpen() async throws {
        try await waitFor("the connection to open") { events.contains(.opened) || hasEnded }
        guard events.contains(.opened) else { throw RawHTTPError("the connection ended: \(events)") }
    }

    func opened(_ connection: WebSocketClientConnection) {
        record(.opened)
    }

    func received(_ message: UnsafeRawBufferPointer, isBinary: Bool, on connection: WebSocketClientConnection) {
        record(.message(Array(message), isBinary: isBinary))
    }

    func peerClosed(code: UInt16, reason: String, on connection: WebSocketClientConnection) {
        record(.peerClosed(code: code, reason: reason))
    }

    func ended(_ connection: WebSocketClientConnection, error: WebSocketClientError?) {
        record(.ended(error))
    }

    private func record(_ event: Event) {
        recorded.withLock { $0.append(event) }
    }
}
