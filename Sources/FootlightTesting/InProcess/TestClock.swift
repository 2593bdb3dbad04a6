import Footlight

/// A clock that moves only when a test says so. Scheduled actions run, in order of
/// their due time, during ``SceneTester/advance(by:sourceLocation:)``.
public final class TestClock: SessionClock {
    private struct Pending {
        let due: Duration
        let order: Int
        let action: @Sendable () -> Void
    }
    private struct State {
        var now: Duration = .zero
        var pending: [Int: Pending] = [:]
        var nextOrder = 0
    }
    private let state = Locked(State())

    public init() {}

    /// Time elapsed since the clock was made.
    public var now: Duration { state.withLock { $0.now } }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        let order = state.withLock { state -> Int in
            let order = state.nextOrder
            state.nextOrder += 1
            state.pending[order] = Pending(
                due: state.now + max(delay, .zero), order: order, action: action)
            return order
        }
        return ScheduledAction { [weak self] in self?.state.withLock { _ = $0.pending.removeValue(forKey: order) } }
    }

    /// The next action due by `deadline`, removed from the schedule, with the clock
    /// moved to its due time.
    func takeNext(dueBy deadline: Duration) -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard
                let next = state.pending.values.filter({ $0.due <= deadline }).min(by: {
                    ($0.due, $0.order) < ($1.due, $1.order)
                })
            else {
                state.now = max(state.now, deadline)
                return nil
            }
            state.pending[next.order] = nil
            state.now = max(state.now, next.due)
            return next.action
        }
    }

    /// Actions scheduled and not yet run.
    public var pendingCount: Int { state.withLock { $0.pending.count } }
}
