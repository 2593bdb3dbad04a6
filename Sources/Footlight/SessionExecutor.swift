import Dispatch

/// Where one session's code runs, one piece at a time, in the order posted.
///
/// Stages, Directors and everything bound to them are confined to their session's
/// executor. Work from other threads (a shared service's update, a timer) reaches a
/// session through ``execute(_:)``. In a server the executor is the service loop that
/// owns the session's connection (so an event needs no thread hop) or, for a session
/// whose Director overran its budget, a queue of its own; in a scene test it is the
/// tester's queue. A `DispatchQueue` is an executor, so services written against this
/// protocol run unchanged in an iOS app or a unit test.
public protocol SessionExecutor: AnyObject, Sendable {
    /// Runs `work` on the executor, after the work posted before it. Never runs it
    /// inline, so the caller may hold locks.
    func execute(_ work: @escaping @Sendable () -> Void)

    /// Runs `work` after `delay` on the executor.
    func execute(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledAction
}

extension DispatchQueue: SessionExecutor {
    public func execute(_ work: @escaping @Sendable () -> Void) {
        async(execute: work)
    }

    public func execute(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledAction {
        let item = DispatchWorkItem(block: work)
        asyncAfter(deadline: .now() + .nanoseconds(delay.clampedNanoseconds), execute: item)
        // DispatchWorkItem.cancel is thread-safe; the type is just not marked Sendable.
        nonisolated(unsafe) let cancellable = item
        return ScheduledAction { cancellable.cancel() }
    }
}

extension Duration {
    /// Whole nanoseconds, at least zero, capped to what `Int` holds.
    package var clampedNanoseconds: Int {
        let (seconds, attoseconds) = components
        guard seconds < Int64(Int.max / 1_000_000_000) else { return .max }
        return Int(max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}
