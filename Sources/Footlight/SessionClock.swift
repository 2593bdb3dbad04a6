/// Time as a session's Directors and services see it. Injected through the
/// ``SessionEnvironment`` so a scene test can move time by hand.
public protocol SessionClock: Sendable {
    /// Runs `action` on the session's executor after `delay`, unless cancelled first.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledAction
}

/// A scheduled action that can be cancelled before it runs.
public final class ScheduledAction: Sendable {
    private let cancelAction: @Sendable () -> Void

    public init(cancel: @escaping @Sendable () -> Void) {
        cancelAction = cancel
    }

    /// Keeps the action from running, if it has not run yet.
    public func cancel() { cancelAction() }
}

/// The real clock: timers that run their action on a session executor.
public struct ExecutorSessionClock: SessionClock {
    let executor: any SessionExecutor

    public init(executor: any SessionExecutor) {
        self.executor = executor
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        executor.execute(after: delay, action)
    }
}
