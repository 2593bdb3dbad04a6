import Footlight
import Logging

/// What ``SessionState`` asks its driver to do, in order.
package enum SessionAction {
    /// Write these messages to the attached connection, in order.
    case send([WireMessage])
    /// Close `connection` with a WebSocket close code, after what was sent to it.
    case close(ConnectionID, code: UInt16, reason: String)
    /// Start the app (the first attach): run the entry with the page's path.
    case startApp(path: String)
    /// Hand a user event to a stage (app code); report back with
    /// ``SessionState/eventHandled(_:error:)``.
    case deliver(ClientMessage.Event, to: Stage)
    /// Diff and send at the end of this turn (``SessionState/flush(unsentBytes:)``).
    case scheduleFlush
    /// The socket is behind: call ``SessionState/drained()`` once it has written
    /// everything queued.
    case awaitDrain
    /// Write a line to the server's log.
    case log(Logger.Level, String)
    /// The session is over: forget it (its token names nothing any more).
    case ended
}
