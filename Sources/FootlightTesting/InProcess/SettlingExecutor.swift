import Dispatch
import Footlight

/// The executor a ``SceneTester`` hands its session: the tester's queue, counting the
/// work posted to it and not yet run (delayed work too, until it runs or is cancelled),
/// so that ``SceneTester/settle(waitingForChange:timeout:sourceLocation:)`` can tell
/// when the session has nothing left to do instead of guessing a number of rounds.
final class SettlingExecutor: SessionExecutor {
    let queue: DispatchQueue
    private let outstanding = Locked(0)
    /// Signalled whenever work is posted or finishes: a settling test thread waits on it.
    let changed = DispatchSemaphore(value: 0)

    init(_ queue: DispatchQueue) {
        self.queue = queue
    }

    /// Work posted and not yet run.
    var pending: Int { outstanding.withLock { $0 } }

    func execute(_ work: @escaping @Sendable () -> Void) {
        begin()
        queue.async { [self] in
            work()
            end()
        }
    }

    func execute(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledAction {
        begin()
        let finished = Locked(false)
        let finish: @Sendable () -> Void = { [self] in
            let first = finished.withLock { done in
                defer { done = true }
                return !done
            }
            if first { end() }
        }
        let item = DispatchWorkItem {
            work()
            finish()
        }
        queue.asyncAfter(deadline: .now() + .nanoseconds(delay.clampedNanoseconds), execute: item)
        // DispatchWorkItem.cancel is thread-safe; the type is just not marked Sendable.
        nonisolated(unsafe) let cancellable = item
        return ScheduledAction {
            cancellable.cancel()
            finish()
        }
    }

    private func begin() {
        outstanding.withLock { $0 += 1 }
        changed.signal()
    }

    private func end() {
        outstanding.withLock { $0 -= 1 }
        changed.signal()
    }
}
