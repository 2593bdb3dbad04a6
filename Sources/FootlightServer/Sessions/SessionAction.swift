import Footlight
import FootlightJSON

/// What a ``SessionState`` asks its host to do, in order: run app code, or carry out a
/// ``ProtocolAction``. Every host runs app code through the one interpreter,
/// ``SessionHost/perform(_:)``.
package enum SessionAction {
    /// Start the app (the first attach): run the entry with the page's path, then, for
    /// a rebuild, the context's modal restorer for each of `modals` (templates, bottom
    /// first); then report back with ``SessionState/appStarted(now:)``.
    case startApp(path: String, modals: [String])
    /// Hand a value the page kept to a rebuilt stage (app code); report back with
    /// ``SessionState/restored(error:)``.
    case restore(name: String, value: JSON, to: Stage)
    /// Hand a user event to a stage (app code); report back with
    /// ``SessionState/eventHandled(_:error:)``.
    case deliver(ClientMessage.Event, to: Stage)
    /// I/O for the host's transport (or the test's page).
    case io(ProtocolAction)
}

extension Array where Element == SessionAction {
    /// The protocol's actions, as the session's.
    init(_ actions: [ProtocolAction]) {
        self = actions.map(SessionAction.io)
    }
}
