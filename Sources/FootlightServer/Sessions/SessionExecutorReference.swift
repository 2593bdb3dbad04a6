import Footlight

/// The executor a session's environment hands to its stages and services: it forwards
/// to the session's driver without keeping it alive. The driver holds its context,
/// whose environment holds this, so a strong reference would be a cycle; and a shared
/// service that still holds the executor of an ended session must not keep it alive.
/// Work posted after the session is gone is dropped.
final class SessionExecutorReference: SessionExecutor {
    private weak let driver: SessionDriver?

    init(_ driver: SessionDriver) {
        self.driver = driver
    }

    func execute(_ work: @escaping @Sendable () -> Void) {
        driver?.execute(work)
    }

    func execute(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledAction {
        driver?.execute(after: delay, work) ?? ScheduledAction {}
    }
}
