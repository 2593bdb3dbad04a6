/// How much the server's HTTP routes may take (``ServerConfiguration/routeLimits``).
public struct RouteLimits: Sendable {
    /// Threads that run route handlers, apart from the service loops (a handler may block
    /// one, reading a database, without holding up any page).
    public var workerThreads: Int = max(2, System.coreCount)
    /// Handlers running at once, a streamed body's writing included; a request beyond
    /// them is answered 503 with `Retry-After`, its body unread.
    public var maximumConcurrentHandlers: Int = 64
    /// How long a handler may take to return its response; after it, the client gets 504
    /// and the handler's task is cancelled (it keeps its place among
    /// ``maximumConcurrentHandlers`` until it returns). A streamed body is not under it:
    /// see ``idleSeconds``.
    public var timeLimit: Duration = .seconds(30)
    /// The largest request body a route reads, unless it says otherwise
    /// (``RouteOptions/maximumBodyBytes``); larger ones are answered 413 unread.
    public var maximumBodyBytes: Int = 1 << 20
    /// Seconds a response may go without a byte taken by the client (a reader that has
    /// stopped, a stream whose writer has stalled) before the connection is closed.
    public var idleSeconds: Int = 30
    /// The `Retry-After` seconds of a 503 when every handler's place is taken.
    public var retryAfterSeconds: Int = 1

    public init() {}
}
