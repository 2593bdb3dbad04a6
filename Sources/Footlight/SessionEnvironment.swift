/// What a session offers the stages it hosts.
///
/// Everything a stage and its Director do runs on ``executor``, one piece at a time.
/// Outputs driven by other threads (timers, shared services) must be delivered
/// through it: a service takes the executor and calls ``SessionExecutor/execute(_:)``,
/// and timers go through ``clock``.
public struct SessionEnvironment: Sendable {
    /// The session's executor.
    public let executor: any SessionExecutor
    /// The session's clock: schedule timers with it, so tests can control time.
    public let clock: any SessionClock
    /// Who opened the session: the visitor, cookies, headers and address of the page's
    /// request (an empty request at "/" in tests and outside a server).
    public let request: SessionRequest

    public init(
        executor: any SessionExecutor, clock: (any SessionClock)? = nil, request: SessionRequest = SessionRequest()
    ) {
        self.executor = executor
        self.clock = clock ?? ExecutorSessionClock(executor: executor)
        self.request = request
    }
}

/// Makes the stages of a new session, on that session's executor (each at the root).
public typealias StageFactory = @Sendable (SessionEnvironment) -> [Stage]

/// Starts a new session's app: shows its root scenes and, for a deep link, the scenes
/// `path` names (the page's location, e.g. "/lots/7").
public typealias AppEntry = @Sendable (_ context: Context, _ path: String) -> Void
