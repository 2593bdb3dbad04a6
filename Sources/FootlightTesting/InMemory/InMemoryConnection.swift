import Footlight
import FootlightJSON
import FootlightServer

/// A connection to a page held in memory: what the session sends is kept for the test
/// to read, and the test decides how much waits "on the socket". The second
/// implementation of ``SessionConnection``, beside the server's WebSockets.
package final class InMemoryConnection: SessionConnection {
    private struct State {
        var received: [WireMessage] = []
        var close: (code: UInt16, reason: String)?
        /// Bytes the test says are still waiting on the socket.
        var unsent = 0
        var drainHandler: (@Sendable () -> Void)?
        var drainRequested = false
    }

    package let id: ConnectionID
    package let home: any SessionLoop
    private let state = Locked(State())

    package init(id: ConnectionID, on loop: any SessionLoop) {
        self.id = id
        home = loop
    }

    package var unsentBytes: Int { state.withLock { $0.unsent } }

    package func send(_ messages: [WireMessage]) {
        state.withLock { state in
            guard state.close == nil else { return }
            state.received += messages
        }
    }

    package func close(code: UInt16, reason: String) {
        state.withLock { state in
            if state.close == nil { state.close = (code, reason) }
        }
    }

    package func setDrainHandler(_ handler: (@Sendable () -> Void)?) {
        state.withLock { $0.drainHandler = handler }
    }

    package func requestDrainSignal() {
        state.withLock { $0.drainRequested = true }
    }

    // MARK: The test's side

    /// The messages received since the last call, parsed.
    package func take() throws -> [JSON] {
        let messages = state.withLock { state in
            defer { state.received.removeAll() }
            return state.received
        }
        return try messages.map { try JSON.parse($0.bytes) }
    }

    /// The close the session asked for, if it has.
    package var closed: (code: UInt16, reason: String)? { state.withLock { $0.close } }

    /// Whether the session waits for a drain signal.
    package var drainRequested: Bool { state.withLock { $0.drainRequested } }

    /// Says `bytes` are waiting on the socket: a slow reader.
    package func holdBack(_ bytes: Int) {
        state.withLock { $0.unsent = bytes }
    }

    /// The socket wrote everything: nothing waits, and a session that asked for the
    /// drain signal gets it.
    package func drain() {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            state.unsent = 0
            guard state.drainRequested else { return nil }
            state.drainRequested = false
            return state.drainHandler
        }
        handler?()
    }
}
