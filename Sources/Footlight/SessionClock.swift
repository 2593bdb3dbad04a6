import Dispatch

/// Time as a session's Directors and services see it. Injected through the
/// ``SessionEnvironment`` so a scene test can move time by hand.
public protocol SessionClock: Sendable {
    /// Runs `action` on the session's queue after `delay`, unless cancelled first.
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

/// The real clock: `DispatchQueue.asyncAfter` on the session's queue.
public struct DispatchSessionClock: SessionClock {
    let queue: DispatchQueue

    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        let item = DispatchWorkItem(block: action)
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(max(0, nanoseconds))), execute: item)
        // DispatchWorkItem.cancel is thread-safe; the type is just not marked Sendable.
        nonisolated(unsafe) let cancellable = item
        return ScheduledAction { cancellable.cancel() }
    }
}
