/// First content in the first response (``ServerConfiguration/firstContent``): the answer
/// to a `GET` of a page carries the first mount of its stages, so the page shows its
/// content before its WebSocket is open, and becomes live when the socket's join adopts
/// the session the `GET` started (nothing is built twice).
///
/// The server starts the session as a join would, waits for its first turn at most
/// ``timeLimit``, and adds the messages the join would have sent (`joined` and the
/// mounts) to the page as data, in `<script type="application/json" id="footlight-first">`:
/// the page stays a static file, the server never renders HTML. The session then waits
/// for its page's socket for ``expiry`` at most; at most ``maximumPending`` wait at once,
/// and past that, or when the first turn takes longer than ``timeLimit``, the plain page
/// is sent. A page that joins late, on another node or after a restart rebuilds its
/// session from what it shows, as any page does.
public struct FirstContentConfiguration: Sendable, Equatable {
    /// Whether pages carry their first content; off sends every page as it is on disk.
    public var isEnabled = true
    /// Sessions started by a page's `GET` that no socket has joined yet, at most; past
    /// it, pages are sent without first content (a flood of `GET`s holds no more).
    public var maximumPending = 256
    /// How long a session started by a page's `GET` waits for the page's socket.
    public var expiry: Duration = .seconds(10)
    /// How long a `GET` waits for the session's first turn (the app's code that shows
    /// the first stages); past it the plain page goes and the session ends. The loop
    /// that answers the `GET` waits meanwhile.
    public var timeLimit: Duration = .milliseconds(100)

    public init() {}
}
