import Foundation

/// Wakes a thread waiting for something to drain (the server's open sockets, in a
/// shutdown) when whoever drains it says it may be done: no polling.
///
/// The waiter checks its condition under the lock and sleeps releasing it; ``notify()``
/// takes the lock after the change, so a notification never falls between the check and
/// the sleep.
final class DrainCondition: Sendable {
    private let condition = NSCondition()

    /// Wakes the waiters to check their condition again.
    func notify() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until `drained` returns true, or `timeout` has passed; returns whether it drained.
    @discardableResult
    func wait(timeout: Duration, until drained: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Double(timeout.clampedNanoseconds) / 1e9)
        condition.lock()
        defer { condition.unlock() }
        while !drained() {
            guard condition.wait(until: deadline) else { return drained() }
        }
        return true
    }
}
