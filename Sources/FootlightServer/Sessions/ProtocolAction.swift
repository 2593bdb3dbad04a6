import Logging

/// What a ``SessionProtocol`` asks the I/O layer to do, in order. A value: tests
/// compare a step's actions whole.
package enum ProtocolAction: Equatable, Sendable {
    /// Write these messages to the attached connection, in order.
    case send([WireMessage])
    /// Close `connection` with a WebSocket close code, after what was sent to it.
    case close(ConnectionID, code: UInt16, reason: String)
    /// Flush at the end of this turn (``SessionState/flush(unsentBytes:)``).
    case scheduleFlush
    /// The socket is behind: call ``SessionState/drained()`` once it has written
    /// everything queued.
    case awaitDrain
    /// Write a line to the server's log.
    case log(Logger.Level, String)
    /// The session is over: forget it (its token names nothing any more).
    case ended
}
