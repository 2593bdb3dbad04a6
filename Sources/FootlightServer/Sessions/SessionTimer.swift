import Synchronization

/// A session timer's action, which a cancel stops even after the timer fired and the
/// action waits in the session's mailbox.
final class SessionTimer: Sendable {
    private let action: @Sendable () -> Void
    private let cancelled = Atomic<Bool>(false)

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    /// Runs the action unless it was cancelled (on the session's executor).
    func fire() {
        if !cancelled.load(ordering: .acquiring) { action() }
    }

    func cancel() {
        cancelled.store(true, ordering: .releasing)
    }
}
