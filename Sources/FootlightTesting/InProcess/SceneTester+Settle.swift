import Dispatch
import Testing

extension SceneTester {
    // MARK: Settling

    /// How long ``settle(waitingForChange:timeout:sourceLocation:)`` waits, at most, for
    /// the session to become quiet (5 seconds unless set); every step settles.
    public var settleTimeout: Duration {
        get { run { settleLimit } }
        set { run { settleLimit = newValue } }
    }

    /// Lets the session's work run until it is quiet: no work queued on its executor (a
    /// delayed `execute(after:)` counts until it runs or is cancelled) and no flush
    /// pending, with every change flushed to the page. Timers of the ``TestClock`` are
    /// not work: they run when ``advance(by:sourceLocation:)`` moves the clock.
    ///
    /// Every step settles. Call it yourself after changing a shared service the scene
    /// observes, before asserting. With `waitingForChange`, it first waits for something
    /// to reach the page: for work another thread hands the session later (a service
    /// that publishes from a queue of its own), which the tester cannot see coming.
    ///
    /// Bounded by `timeout` (``settleTimeout`` unless given), not by a number of rounds:
    /// a session that never becomes quiet (a Director that keeps scheduling work), or a
    /// change that never comes, fails the test with what was still outstanding.
    public func settle(
        waitingForChange: Bool = false, timeout: Duration? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let limit = timeout ?? settleTimeout
        let start = ContinuousClock.now
        let messagesBefore = run { received }
        var turns = 0
        while true {
            let (quiet, changed) = run { () -> (Bool, Bool) in
                flush()
                return (!state.flushScheduled && executor.pending == 0, received > messagesBefore)
            }
            turns += 1
            if quiet && (changed || !waitingForChange) { return }
            let elapsed = ContinuousClock.now - start
            guard elapsed < limit else {
                let pending = executor.pending
                Issue.record(
                    Comment(
                        rawValue: quiet
                            ? "settle: nothing reached the page within \(limit) (waiting for a change); the session is idle"
                            : "settle: the session did not become quiet within \(limit) (\(turns) turns ran; still "
                                + "\(pending) piece(s) of work queued on its executor"
                                + (run { state.flushScheduled } ? ", a flush pending" : "")
                                + "): a Director or service that keeps scheduling work?"),
                    sourceLocation: sourceLocation)
                return
            }
            if quiet || executor.pending > 0 {
                // Wait for work to be posted or to finish (or the deadline), not for a round.
                let left = limit - elapsed
                _ = executor.changed.wait(timeout: .now() + .nanoseconds(left.clampedNanoseconds))
            }
        }
    }
}
