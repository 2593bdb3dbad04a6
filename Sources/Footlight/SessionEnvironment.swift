import Dispatch

/// What a session offers the stages it hosts.
///
/// Everything a stage and its Director do runs serially on ``queue``. Outputs driven
/// by other threads (timers, shared services) must be received on it, e.g. with
/// `.receive(on: environment.queue)` (`.receive(on: environment.queue.ocombine)` under
/// OpenCombine).
public struct SessionEnvironment: Sendable {
    /// The session's serial executor.
    public let queue: DispatchQueue
    /// The session's clock: schedule timers with it, so tests can control time.
    public let clock: any SessionClock

    public init(queue: DispatchQueue, clock: (any SessionClock)? = nil) {
        self.queue = queue
        self.clock = clock ?? DispatchSessionClock(queue: queue)
    }
}

/// Makes the stages of a new session, on that session's queue (each at the root).
public typealias StageFactory = @Sendable (SessionEnvironment) -> [Stage]

/// Starts a new session's app: shows its root scene(s) and, for a deep link, the
/// scenes `path` names (the page's location, e.g. "/lots/7").
public typealias AppEntry = @Sendable (_ context: Context, _ path: String) -> Void
