/// A token bucket: `rate` tokens a second, at most `burst` saved up.
struct TokenBucket: Equatable {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant

    init(rate: Double, burst: Double, now: ContinuousClock.Instant) {
        self.rate = rate
        self.burst = max(1, burst)
        self.tokens = max(1, burst)
        self.last = now
    }

    /// Takes one token if there is one.
    mutating func take(now: ContinuousClock.Instant) -> Bool {
        let elapsed = now - last
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        tokens = min(burst, tokens + seconds * rate)
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
