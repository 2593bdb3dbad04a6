import Footlight

/// A one-shot gate for tasks: ``wait()`` suspends until ``open()`` is called, and
/// returns at once after that. ``Server/run()`` waits on one until the server has stopped.
final class Latch: Sendable {
    private enum State {
        case closed(waiters: [CheckedContinuation<Void, Never>])
        case open
    }
    private let state = Locked(State.closed(waiters: []))

    /// Lets every waiting task go on, and every later one through. Safe to call more than once.
    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard case .closed(let waiters) = state else { return [] }
            state = .open
            return waiters
        }
        // Resumed outside the lock: a resumed task may run at once on this thread.
        for waiter in waiters { waiter.resume() }
    }

    /// Suspends until the latch is open.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state -> Bool in
                guard case .closed(var waiters) = state else { return true }
                waiters.append(continuation)
                state = .closed(waiters: waiters)
                return false
            }
            if isOpen { continuation.resume() }
        }
    }
}
