import Footlight

/// A ticking "now" for Directors that show time left: the time at subscription, then
/// again every interval, scheduled on a session's clock (so it is delivered on the
/// session's executor, and a test moves it by hand).
public enum ClockTicks {
    /// Emits `now()` at subscription and every `interval` after, until cancelled.
    public static func every(
        _ interval: Duration, on clock: any SessionClock, now: @escaping @Sendable () -> Duration
    ) -> AnyPublisher<Duration, Never> {
        Deferred { () -> AnyPublisher<Duration, Never> in
            let ticker = Ticker(interval: interval, clock: clock, now: now)
            return ticker.subject.prepend(now())
                .handleEvents(
                    receiveSubscription: { _ in ticker.scheduleNext() }, receiveCancel: { ticker.cancel() }
                )
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    /// Reschedules itself on the clock; used only on the session's executor.
    private final class Ticker: @unchecked Sendable {
        let subject = PassthroughSubject<Duration, Never>()
        private let interval: Duration
        private let clock: any SessionClock
        private let now: @Sendable () -> Duration
        private var timer: ScheduledAction?
        private var cancelled = false

        init(interval: Duration, clock: any SessionClock, now: @escaping @Sendable () -> Duration) {
            self.interval = interval
            self.clock = clock
            self.now = now
        }

        func scheduleNext() {
            guard !cancelled else { return }
            timer = clock.schedule(after: interval) { [self] in
                guard !cancelled else { return }
                subject.send(now())
                scheduleNext()
            }
        }

        func cancel() {
            cancelled = true
            timer?.cancel()
            timer = nil
        }
    }
}
