/// What one run measured.
struct RunResult: Sendable {
    let sessions: Int
    /// For each session rebuilt whole: from the restarted server printing its address
    /// to its resume returning (joined, every mount applied).
    let rebuildTimes: [Duration]
    /// The CPU the server and the clients used from then until every resume returned.
    let rebuildCPU: PhaseCPU?
    /// The sessions not rebuilt whole, by what went wrong.
    let problems: ProblemCounts
    /// For each fresh join: from the joins' start to its first mounts applied.
    let joinTimes: [Duration]
    /// The CPU the server and the clients used from the joins' start to the last one.
    let joinCPU: PhaseCPU?
    /// The fresh joins that failed, by why.
    let freshFailures: ProblemCounts

    /// From the server being back to the last session rebuilt.
    var lastRebuilt: Duration { rebuildTimes.max() ?? .zero }

    /// Sessions rebuilt whole per second, from the server being back to the last of them.
    var rebuildsPerSecond: Double { Self.rate(rebuildTimes) }

    /// Fresh joins per second, from their start to the last of them.
    var joinsPerSecond: Double { Self.rate(joinTimes) }

    /// Rebuilds per second over fresh joins per second (nil without fresh joins).
    var ratio: Double? { joinsPerSecond > 0 ? rebuildsPerSecond / joinsPerSecond : nil }

    /// Sessions per second, from the start `times` count from to the last of them.
    private static func rate(_ times: [Duration]) -> Double {
        guard let last = times.max(), last > .zero else { return 0 }
        return Double(times.count) / last.seconds
    }

    /// The rebuild time `fraction` of the sessions stayed within (nearest rank).
    func rebuildPercentile(_ fraction: Double) -> Duration? {
        guard !rebuildTimes.isEmpty else { return nil }
        let sorted = rebuildTimes.sorted()
        let rank = Int((Double(sorted.count) * fraction).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }
}

/// Sessions that went wrong, counted by what went wrong, with one example of each.
struct ProblemCounts: Sendable {
    private(set) var counts: [String: (count: Int, example: String)] = [:]

    var total: Int { counts.values.reduce(0) { $0 + $1.count } }

    mutating func add(_ problem: SessionProblem) {
        // A client's error can describe its whole mirror: one example is kept short.
        let example = problem.example.count > 300 ? problem.example.prefix(300) + "…" : problem.example
        counts[problem.kind, default: (0, example)].count += 1
    }
}

/// One thing wrong with a session: a kind, for counting, and one example's details.
struct SessionProblem: Sendable {
    let kind: String
    let example: String
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
