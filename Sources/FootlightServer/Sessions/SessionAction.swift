import Footlight
import FootlightJSON
import Logging

/// What ``SessionState`` asks its driver to do, in order.
package enum SessionAction {
    /// Write these messages to the attached connection, in order.
    case send([WireMessage])
    /// Close `connection` with a WebSocket close code, after what was sent to it.
    case close(ConnectionID, code: UInt16, reason: String)
    /// Start the app (the first attach): run the entry with the page's path, then, for
    /// a rebuild, the context's modal restorer for each of `modals` (templates, bottom
    /// first); then report back with ``SessionState/appStarted()``.
    case startApp(path: String, modals: [String])
    /// Hand a value the page kept to a rebuilt stage (app code); report back with
    /// ``SessionState/restored(error:)``.
    case restore(name: String, value: JSON, to: Stage)
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
