import Dispatch
import Footlight

/// Time as the auction service sees it: what time it is (for closing lots and
/// stamping bids) and timers. Live: ``DispatchAuctionClock``; in tests:
/// ``ManualAuctionClock``, which moves only when told.
///
/// It is a ``SessionClock`` too, so the same manual clock can drive a session's
/// tickers in a test.
public protocol AuctionClock: SessionClock {
    /// Time since the clock started.
    var now: Duration { get }
}

/// The real auction clock: monotonic time since it was made, and timers on its own
/// serial queue (never a session's).
public struct DispatchAuctionClock: AuctionClock {
    private let start = ContinuousClock.now
    private let timers: ExecutorSessionClock

    /// A clock starting now, running its timers on `queue`.
    public init(queue: DispatchQueue = DispatchQueue(label: "footlight.auction-clock")) {
        timers = ExecutorSessionClock(executor: queue)
    }

    public var now: Duration { start.duration(to: .now) }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        timers.schedule(after: delay, action)
    }
}
