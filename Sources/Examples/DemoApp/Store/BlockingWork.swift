import Footlight
import Foundation

/// Runs slow, blocking work (hashing a password) off the sessions' service loops, on a
/// few threads of its own: at most `concurrency` pieces at once and `waitingLimit`
/// waiting; more is refused, never queued without bound.
public final class BlockingWork: Sendable {
    private let queue: OperationQueue
    private let pending = Locked(0)
    private let limit: Int

    public init(name: String = "footlight.blocking-work", concurrency: Int = 2, waitingLimit: Int = 64) {
        queue = OperationQueue()
        queue.name = name
        queue.maxConcurrentOperationCount = max(1, concurrency)
        limit = max(1, concurrency) + max(0, waitingLimit)
    }

    /// Runs `work` on one of the threads; false (and `work` is dropped) when as much is
    /// running and waiting as allowed.
    public func run(_ work: @escaping @Sendable () -> Void) -> Bool {
        let admitted = pending.withLock { count -> Bool in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted else { return false }
        queue.addOperation { [pending] in
            work()
            pending.withLock { $0 -= 1 }
        }
        return true
    }
}
