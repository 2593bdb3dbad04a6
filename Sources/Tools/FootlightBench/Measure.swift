/// How long one measured operation took over repeated runs.
struct Timing {
    /// The middle run time (the mean of the two middle ones for an even count).
    var median: Duration
    /// The fastest run.
    var min: Duration
    /// How many timed runs the figures come from (warm-up runs not included).
    var runs: Int
    /// The sum of the values the runs returned, to be printed or checked, so the
    /// optimiser cannot drop the work.
    var checksum: Int

    /// Bytes per second at the median time, in MB/s (1 MB = 10⁶ bytes).
    func megabytesPerSecond(_ bytes: Int) -> Double {
        Double(bytes) / median.seconds / 1_000_000
    }
}

/// How much time each measurement may take.
struct Budget {
    /// Untimed runs first, to fill caches and settle allocators.
    var warmupRuns = 3
    /// Timed runs stop once this much time has been spent on them…
    var time: Duration = .seconds(1.5)
    /// …but never before this many runs…
    var minimumRuns = 5
    /// …and never after this many.
    var maximumRuns = 101
}

/// Times `body` on a monotonic clock: `budget.warmupRuns` untimed runs, then timed
/// runs until the budget's time is spent (within its run-count bounds).
///
/// `body` returns some number derived from its result (a count, a size); the numbers
/// are summed into ``Timing/checksum`` so the work stays observable.
func measure(_ budget: Budget, _ body: () throws -> Int) throws -> Timing {
    try withoutActuallyEscaping(body) { try measure(budget, [$0])[0] }
}

/// Times several bodies that do the same job in different ways, taking turns run by run
/// (a, b, a, b, …), so each sees the same heap and cache conditions and a ratio between
/// them is fair. The budget's time and run bounds apply to each body's runs.
func measure(_ budget: Budget, _ bodies: [() throws -> Int]) throws -> [Timing] {
    var checksums = [Int](repeating: 0, count: bodies.count)
    for _ in 0..<budget.warmupRuns {
        for (index, body) in bodies.enumerated() { checksums[index] &+= try body() }
    }
    let clock = ContinuousClock()
    var samples = [[Duration]](repeating: [], count: bodies.count)
    let timeLimit = budget.time * bodies.count
    let start = clock.now
    while samples[0].count < budget.maximumRuns,
        samples[0].count < budget.minimumRuns || start.duration(to: clock.now) < timeLimit
    {
        for (index, body) in bodies.enumerated() {
            let before = clock.now
            checksums[index] &+= try body()
            samples[index].append(before.duration(to: clock.now))
        }
    }
    return bodies.indices.map { index in
        let sorted = samples[index].sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return Timing(median: median, min: sorted[0], runs: sorted.count, checksum: checksums[index])
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
