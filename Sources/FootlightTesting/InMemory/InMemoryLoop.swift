import Dispatch
import Footlight
import FootlightServer

/// Where sessions run their turns with no socket: a serial queue, as a service loop is
/// one thread. The second implementation of ``SessionLoop``, beside the server's
/// libwebsockets loops; its app code has no watchdog.
package final class InMemoryLoop: SessionLoop {
    private let queue = DispatchQueue(label: "footlight.in-memory-loop")
    private let key = DispatchSpecificKey<Bool>()
    private let stopped = Locked(false)

    package init() {
        queue.setSpecific(key: key, value: true)
    }

    package func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        guard !stopped.withLock({ $0 }) else { return false }
        queue.async(execute: work)
        return true
    }

    package var inLoop: Bool { DispatchQueue.getSpecific(key: key) == true }

    package func beginAppCode() -> UInt64 { 0 }

    package func endAppCode(_ turn: UInt64) -> Bool { true }

    /// Runs `body` on the loop after everything posted before it, and waits for it: a
    /// test's way to let the loop's work settle. Not from the loop itself.
    package func sync<T>(_ body: () throws -> T) rethrows -> T {
        precondition(!inLoop, "InMemoryLoop.sync from the loop itself would wait forever")
        return try queue.sync(execute: body)
    }

    /// Stops taking work, as a stopped service loop does.
    package func stop() {
        stopped.withLock { $0 = true }
    }
}
