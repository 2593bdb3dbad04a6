import BenchSupport

/// The server benchmark's results as Markdown: round trips, throughput and CPU against
/// the echo floor (medians over each level's rounds, ratios taken round by round), server
/// memory, and issue 10's targets judged on those medians.
struct Report {
    let results: BenchmarkResults

    typealias Round = BenchmarkResults.Round
    typealias Result = LoadGenerator.LoopResult

    /// Issue 10's goals, as ratios of Footlight's figure to the echo floor's.
    static let latencyGoal = 1.3  // p50 round trip at 1 session, at most
    static let throughputGoal = 0.5  // events/s at 100 and 1,000 sessions, at least
    static let tailGoal = 2.0  // p99 round trip at 100 and 1,000 sessions, at most
    static let cpuGoal = 2.0  // server CPU per event, at most
    static let memoryGoalKiB = 16.0  // per idle session at 10,000 sessions, at most

    var text: String {
        [roundTrips, throughput, cpu, memory, targets].joined(separator: "\n\n")
    }

    // MARK: Figures over rounds

    static func p50(_ result: Result) -> Double? { result.histogram.quantile(0.5).map { Double($0) } }
    static func p99(_ result: Result) -> Double? { result.histogram.quantile(0.99).map { Double($0) } }
    static func rate(_ result: Result) -> Double? { result.perSecond }
    /// Server CPU seconds per completed round trip.
    static func cpuEach(_ result: Result) -> Double? {
        result.serverCPUSeconds.map { $0 / Double(max(1, result.completed)) }
    }

    /// `metric` of one side in each round that measured it.
    static func values(
        _ level: BenchmarkResults.Level, _ side: KeyPath<Round, Result?>, _ metric: (Result) -> Double?
    ) -> [Double] {
        level.rounds.compactMap { $0[keyPath: side].flatMap(metric) }
    }

    /// Footlight's `metric` over the echo's, in each round that measured both.
    static func ratios(_ level: BenchmarkResults.Level, _ metric: (Result) -> Double?) -> [Double] {
        level.rounds.compactMap { round in
            guard let footlight = round.footlight.flatMap(metric), let echo = round.echo.flatMap(metric), echo > 0
            else { return nil }
            return footlight / echo
        }
    }

    /// A ratio's median, with the rounds' range when there are several: `1.84× (1.80–2.12×)`.
    static func ratioText(_ ratios: [Double]) -> String {
        guard let middle = median(ratios) else { return "–" }
        guard ratios.count > 1, let low = ratios.min(), let high = ratios.max() else { return Format.ratio(middle) }
        return Format.ratio(middle) + String(format: " (%.2f–%.2f×)", low, high)
    }

    private var roundCount: Int { results.levels.map(\.rounds.count).max() ?? 0 }

    // MARK: Tables

    private var roundTrips: String {
        let options = results.options
        var table = MarkdownTable([
            ("sessions", .right), ("footlight p50", .right), ("footlight p99", .right), ("echo p50", .right),
            ("echo p99", .right), ("p50 ratio", .right), ("p99 ratio", .right),
        ])
        for level in results.levels {
            func time(_ side: KeyPath<Round, Result?>, _ metric: (Result) -> Double?) -> String {
                Format.time(nanoseconds: median(Self.values(level, side, metric)).map { UInt64($0) })
            }
            table.append([
                Format.count(level.sessions), time(\.footlight, Self.p50), time(\.footlight, Self.p99),
                time(\.echo, Self.p50), time(\.echo, Self.p99), Self.ratioText(Self.ratios(level, Self.p50)),
                Self.ratioText(Self.ratios(level, Self.p99)),
            ])
        }
        let size = LoadWire.eventSize(1)
        return """
            ### Server: event → patch round trip vs the echo floor

            Closed loop on loopback, one message outstanding per connection: latency runs from writing \
            the event to reading the `patch` that acks it (echo: to reading the same bytes back). \
            Counted over \(seconds(options.measure)) after \(seconds(options.warmup)) of warm-up; \
            event messages are \(size)–\(size + 5) bytes and the echo connections send the same messages. \
            \(roundCount) round(s) per level, the echo and Footlight back to back in each (in alternating \
            order; at the largest idle level, the first round's Footlight loop runs over the sessions held \
            before the rounds); times are the rounds' medians (the upper middle of an even count), ratios \
            the median of each round's ratio (with their range).

            \(table.text)
            """ + problemLines
    }

    private var problemLines: String {
        let problems = results.levels.flatMap { level in level.problems.map { "\(Format.count(level.sessions)): \($0)" }
        }
        return problems.isEmpty ? "" : "\n\n" + problems.map { "- not measured at \($0)" }.joined(separator: "\n")
    }

    private var throughput: String {
        var table = MarkdownTable([
            ("sessions", .right), ("footlight events/s", .right), ("echo messages/s", .right), ("ratio", .right),
        ])
        for level in results.levels {
            let footlight = median(Self.values(level, \.footlight, Self.rate))
            let echo = median(Self.values(level, \.echo, Self.rate))
            table.append([
                Format.count(level.sessions), footlight.map(Format.rate) ?? "–", echo.map(Format.rate) ?? "–",
                Self.ratioText(Self.ratios(level, Self.rate)),
            ])
        }
        return """
            ### Server: throughput (events/s are completed round trips; medians over the rounds)

            \(table.text)
            """
    }

    private var cpu: String {
        var table = MarkdownTable([
            ("sessions", .right), ("server CPU per event, footlight", .right), ("per message, echo", .right),
            ("ratio", .right), ("server busy, footlight / echo", .right),
            ("generator busiest, footlight / echo", .right),
            ("server core, others: footlight / echo", .right),
        ])
        var busy: [String] = []
        for level in results.levels {
            func each(_ side: KeyPath<Round, Result?>) -> String {
                Format.time(nanoseconds: median(Self.values(level, side, Self.cpuEach)).map { UInt64($0 * 1e9) })
            }
            func share(_ side: KeyPath<Round, Result?>, _ seconds: (Result) -> Double?, _ pick: ([Double]) -> Double?)
                -> String
            {
                pick(Self.values(level, side) { run in seconds(run).map { $0 / run.wallSeconds } })
                    .map { String(format: "%.0f %%", $0 * 100) } ?? "–"
            }
            let others: (Result) -> Double? = { run in
                guard let core = run.serverCoreBusySeconds, let server = run.serverCPUSeconds else { return nil }
                return max(0, core - server)
            }
            table.append([
                Format.count(level.sessions), each(\.footlight), each(\.echo),
                Self.ratioText(Self.ratios(level, Self.cpuEach)),
                share(\.footlight, \.serverCPUSeconds, median) + " / "
                    + share(\.echo, \.serverCPUSeconds, median),
                share(\.footlight, \.cpuSeconds, { $0.max() }) + " / " + share(\.echo, \.cpuSeconds, { $0.max() }),
                share(\.footlight, others, { $0.max() }) + " / " + share(\.echo, others, { $0.max() }),
            ])
            for (name, side) in [("footlight", \Round.footlight), ("echo", \Round.echo)]
            where level.rounds.contains(where: { round in
                round[keyPath: side].map { $0.cpuSeconds >= 0.9 * $0.wallSeconds } ?? false
            }) {
                busy.append("\(name) at \(Format.count(level.sessions))")
            }
        }
        let note =
            busy.isEmpty
            ? "The generator (one thread on its own core) stayed below 90 % CPU in every round."
            : "The generator used ≥ 90 % of its core in some round of: \(busy.joined(separator: ", ")); those rows "
                + "are bounded by the generator as much as by the server."
        return """
            ### Server: CPU during the measurement window

            Server: utime + stime from /proc/PID/stat (10 ms ticks; all its threads share one core) per round \
            trip completed in the window, the rounds' median, and the median of each round's ratio; its busy \
            share of the window (median). Generator: getrusage of its own process (one thread, pinned to its \
            own core), the busiest round's share of the window. CPU per round trip is the figure least \
            disturbed by other load on the machine. "Server core, others": the server's core busy outside the \
            server process (other processes, interrupts, steal; /proc/stat), the busiest round; high values \
            mean the server shared its core.

            \(table.text)

            \(note)
            """
    }

    private var memory: String {
        var table = MarkdownTable([
            ("idle sessions", .right), ("joined", .right), ("server VmRSS", .right), ("growth", .right),
            ("per session", .right),
        ])
        let baseline = results.memory.first?.residentKiB
        for point in results.memory {
            let growth = point.residentKiB.flatMap { rss in baseline.map { rss - $0 } }
            table.append([
                Format.count(point.sessions), Format.count(point.joined),
                point.residentKiB.map { Format.count($0) + " KiB" } ?? "–",
                point.sessions == 0 ? "" : growth.map { Format.count($0) + " KiB" } ?? "–",
                point.sessions == 0 ? "" : perSession(point).map(Format.kibibytes) ?? "–",
            ])
        }
        var held = "10,000 sessions held: not measured."
        if let hold = results.held {
            held =
                "\(Format.count(hold.target)) sessions held: \(hold.joined == hold.target ? "yes" : "no") "
                + "(\(Format.count(hold.joined)) of \(Format.count(hold.target)) joined and open after 2 s idle, "
                + "\(hold.dropped) dropped)"
            if let problem = results.holdProblem { held += "; first problem: \(problem)" }
            held += "."
        }
        return """
            ### Server: memory (VmRSS from /proc, joined idle sessions, after warm-up)

            \(table.text)

            \(held)
            """
    }

    private var targets: String {
        var table = MarkdownTable([
            ("target (issue 10)", .left), ("measured (median of rounds)", .right), ("rounds met", .right),
            ("status", .left),
        ])
        func level(_ sessions: Int) -> BenchmarkResults.Level? { results.levels.first { $0.sessions == sessions } }
        /// A ratio target at `sessions`: met when the rounds' median ratio is within `goal`.
        func ratioRow(
            _ name: String, at sessions: Int, _ metric: (Result) -> Double?, goal: Double, atMost: Bool
        ) {
            let ratios = level(sessions).map { Self.ratios($0, metric) } ?? []
            let within = { (ratio: Double) in atMost ? ratio <= goal : ratio >= goal }
            let sign = atMost ? "≤" : "≥"
            table.append([
                "\(name) at \(Format.count(sessions)) session(s) \(sign) \(Format.ratio(goal)) the echo's",
                Self.ratioText(ratios), ratios.isEmpty ? "–" : "\(ratios.filter(within).count) of \(ratios.count)",
                median(ratios).map { within($0) ? "met" : "missed" } ?? "not measured",
            ])
        }
        ratioRow("round trip p50", at: 1, Self.p50, goal: Self.latencyGoal, atMost: true)
        for sessions in [100, 1_000] {
            ratioRow("events/s", at: sessions, Self.rate, goal: Self.throughputGoal, atMost: false)
        }
        for sessions in [100, 1_000] {
            ratioRow("round trip p99", at: sessions, Self.p99, goal: Self.tailGoal, atMost: true)
        }
        for sessions in results.levels.map(\.sessions) {
            ratioRow("server CPU per event", at: sessions, Self.cpuEach, goal: Self.cpuGoal, atMost: true)
        }

        let largest = results.memory.last.flatMap { $0.sessions > 0 ? $0 : nil }
        let memoryEach = largest.flatMap(perSession)
        table.append([
            "server RSS at \(largest.map { Format.count($0.sessions) } ?? "10,000") idle sessions ≤ "
                + "\(Int(Self.memoryGoalKiB)) KiB per session",
            memoryEach.map(Format.kibibytes) ?? "–", "",
            memoryEach.map { $0 <= Self.memoryGoalKiB ? "met" : "missed" } ?? "not measured",
        ])
        let hold = results.held
        table.append([
            "\(hold.map { Format.count($0.target) } ?? "10,000") sessions held",
            hold.map { "\(Format.count($0.joined)) joined" } ?? "–", "",
            hold.map { $0.joined == $0.target && $0.dropped == 0 ? "met" : "missed" } ?? "not measured",
        ])

        let statuses = table.rows.map { $0[3] }
        let met = statuses.filter { $0 == "met" }.count
        return """
            ### Server: targets

            Each ratio target is judged on the median of the rounds' ratios (\(roundCount) round(s) per level); \
            "rounds met" counts the rounds whose own ratio meets it.

            \(table.text)

            \(met) of \(statuses.count) targets met.
            """
    }

    private func perSession(_ point: BenchmarkResults.Memory) -> Double? {
        guard point.sessions > 0, let rss = point.residentKiB, let baseline = results.memory.first?.residentKiB else {
            return nil
        }
        return Double(rss - baseline) / Double(point.sessions)
    }

    private func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
