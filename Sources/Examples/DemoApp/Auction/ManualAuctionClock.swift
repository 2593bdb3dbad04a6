import Footlight

/// An auction clock that moves only when told: ``advance(by:)`` runs the actions that
/// fall due, in order of due time (then of scheduling), on the calling thread.
public final class ManualAuctionClock: AuctionClock {
    private struct Pending {
        let due: Duration
        let order: Int
        let action: @Sendable () -> Void
    }
    private struct State {
        var now: Duration
        var pending: [Int: Pending] = [:]
        var nextOrder = 0
    }
    private let state: Locked<State>

    /// A clock reading `now`.
    public init(now: Duration = .zero) {
        state = Locked(State(now: now))
    }

    public var now: Duration { state.withLock { $0.now } }

    /// Actions scheduled and not yet run.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        let order = state.withLock { state -> Int in
            let order = state.nextOrder
            state.nextOrder += 1
            state.pending[order] = Pending(due: state.now + max(delay, .zero), order: order, action: action)
            return order
        }
        return ScheduledAction { [weak self] in self?.state.withLock { _ = $0.pending.removeValue(forKey: order) } }
    }

    /// Moves time forward by `duration`, running each action that falls due at its due
    /// time (actions it schedules run too, if they fall due in the same span).
    public func advance(by duration: Duration) {
        let deadline = now + max(duration, .zero)
        while let action = takeNext(dueBy: deadline) {
            action()
        }
    }

    private func takeNext(dueBy deadline: Duration) -> (@Sendable () -> Void)? {
        state.withLock { state in
            let due = state.pending.values.filter { $0.due <= deadline }
            guard let next = due.min(by: { ($0.due, $0.order) < ($1.due, $1.order) }) else {
                state.now = max(state.now, deadline)
                return nil
            }
            state.pending[next.order] = nil
            state.now = max(state.now, next.due)
            return next.action
        }
    }
}
