import BenchSupport

/// The server benchmark's results as Markdown: round trips, throughput with the
/// generator's CPU, server memory, and the issue's targets.
struct Report {
    let results: BenchmarkResults

    /// Goals from issue 3.
    static let latencyGoal = 1.3  // footlight p50 / echo p50 at 1 session, at most
    static let throughputGoal = 0.5  // footlight events/s / echo messages/s at 100 sessions, at least
    static let memoryGoalKiB = 16.0  // per session at 1,000 sessions, at most

    var text: String {
        [roundTrips, throughput, cpu, memory, targets].joined(separator: "\n\n")
    }

    private var roundTrips: String {
        let options = results.options
        var table = MarkdownTable([
            ("sessions", .right), ("footlight p50", .right), ("footlight p99", .right), ("echo p50", .right),
            ("echo p99", .right), ("p50 ratio", .right), ("p99 ratio", .right),
        ])
        for level in results.levels {
            let footlight = (level.footlight?.histogram.quantile(0.5), level.footlight?.histogram.quantile(0.99))
            let echo = (level.echo?.histogram.quantile(0.5), level.echo?.histogram.quantile(0.99))
            table.append([
                Format.count(level.sessions), Format.time(nanoseconds: footlight.0),
                Format.time(nanoseconds: footlight.1), Format.time(nanoseconds: echo.0),
                Format.time(nanoseconds: echo.1), Format.ratio(ratio(footlight.0, echo.0)),
                Format.ratio(ratio(footlight.1, echo.1)),
            ])
        }
        let size = Wire.eventSize(1)
        return """
            ### Server: event → patch round trip vs the echo floor

            Closed loop on loopback, one message outstanding per connection: latency runs from writing \
            the event to reading the `patch` that acks it (echo: to reading the same bytes back). \
            Counted over \(seconds(options.measure)) after \(seconds(options.warmup)) of warm-up; \
            event messages are \(size)–\(size + 5) bytes and the echo connections send the same messages.

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
            let footlight = level.footlight?.perSecond
            let echo = level.echo?.perSecond
            table.append([
                Format.count(level.sessions), footlight.map(Format.rate) ?? "–", echo.map(Format.rate) ?? "–",
                Format.ratio(ratio(footlight, echo)),
            ])
        }
        return """
            ### Server: throughput (events/s are completed round trips)

            \(table.text)
            """
    }

    private var cpu: String {
        var table = MarkdownTable([
            ("sessions", .right), ("generator CPU / wall, footlight", .right), ("generator CPU / wall, echo", .right),
            ("server CPU, footlight", .right), ("server CPU, echo", .right),
            ("server core, others: footlight / echo", .right),
        ])
        var busy: [String] = []
        for level in results.levels {
            let runs = [level.footlight, level.echo]
            let generator = runs.map { run in run.map { Format.cpu($0.cpuSeconds, of: $0.wallSeconds) } ?? "–" }
            let server = zip(runs, ["event", "message"]).map { run, unit in
                run.flatMap { result in
                    result.serverCPUSeconds.map { seconds in
                        let each = UInt64(seconds / Double(max(1, result.completed)) * 1e9)
                        return String(format: "%.0f %% · ", seconds / result.wallSeconds * 100)
                            + Format.time(nanoseconds: each) + "/" + unit
                    }
                } ?? "–"
            }
            let others = runs.map { run -> String in
                guard let run, let busy = run.serverCoreBusySeconds, let server = run.serverCPUSeconds else {
                    return "–"
                }
                return String(format: "%.0f %%", max(0, busy - server) / run.wallSeconds * 100)
            }
            table.append([Format.count(level.sessions)] + generator + server + [others.joined(separator: " / ")])
            for (name, run) in zip(["footlight", "echo"], runs) {
                if let run, run.cpuSeconds >= 0.9 * run.wallSeconds {
                    busy.append("\(name) at \(Format.count(level.sessions))")
                }
            }
        }
        let note =
            busy.isEmpty
            ? "The generator (one thread on its own core) stayed below 90 % CPU in every row."
            : "The generator used ≥ 90 % of its core in: \(busy.joined(separator: ", ")); those rows are bounded by "
                + "the generator as much as by the server."
        return """
            ### Server: CPU during the measurement window

            Generator: getrusage of its own process (one thread, pinned to its own core). Server: utime + stime \
            from /proc/PID/stat (10 ms ticks; all its threads share the other core) as a share of the window, \
            and per round trip completed in it. CPU per round trip is the figure least disturbed by other load \
            on the machine. "Server core, others": the server's core busy outside the server process (other \
            processes, interrupts, steal; /proc/stat) as a share of the window; high values mean the server \
            shared its core.

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
        var table = MarkdownTable([("target (issue 3)", .left), ("measured", .right), ("status", .left)])
        func status(_ met: Bool?) -> String { met.map { $0 ? "met" : "missed" } ?? "not measured" }

        let one = results.levels.first { $0.sessions == 1 }
        let latency = ratio(one?.footlight?.histogram.quantile(0.5), one?.echo?.histogram.quantile(0.5))
        table.append([
            "round trip (p50) at 1 session ≤ \(Format.ratio(Self.latencyGoal)) the echo floor", Format.ratio(latency),
            status(latency.map { $0 <= Self.latencyGoal }),
        ])

        let hundred = results.levels.first { $0.sessions == 100 }
        let rate = ratio(hundred?.footlight?.perSecond, hundred?.echo?.perSecond)
        table.append([
            "events/s at 100 sessions ≥ \(Format.ratio(Self.throughputGoal)) the echo floor's", Format.ratio(rate),
            status(rate.map { $0 >= Self.throughputGoal }),
        ])

        let perThousand = results.memory.first { $0.sessions == 1_000 }.flatMap(perSession)
        table.append([
            "server RSS at 1,000 sessions ≤ \(Int(Self.memoryGoalKiB)) KiB per session",
            perThousand.map(Format.kibibytes) ?? "–", status(perThousand.map { $0 <= Self.memoryGoalKiB }),
        ])

        let hold = results.held.flatMap { $0.target == 10_000 ? $0 : nil }
        table.append([
            "10,000 sessions held", hold.map { "\(Format.count($0.joined)) joined" } ?? "–",
            status(hold.map { $0.joined == $0.target && $0.dropped == 0 }),
        ])

        let statuses = table.rows.map { $0[2] }
        let met = statuses.filter { $0 == "met" }.count
        let summary =
            "Targets: round trip ≤ \(Format.ratio(Self.latencyGoal)) echo at 1 session (\(Format.ratio(latency))), "
            + "events/s ≥ \(Format.ratio(Self.throughputGoal)) echo at 100 sessions (\(Format.ratio(rate))), "
            + "≤ \(Int(Self.memoryGoalKiB)) KiB/session at 1,000 (\(perThousand.map(Format.kibibytes) ?? "–")), "
            + "10,000 held (\(hold.map { $0.joined == $0.target ? "yes" : "no" } ?? "–")): "
            + "\(met) of \(statuses.count) met."
        return """
            ### Server: targets

            \(table.text)

            \(summary)
            """
    }

    private func perSession(_ point: BenchmarkResults.Memory) -> Double? {
        guard point.sessions > 0, let rss = point.residentKiB, let baseline = results.memory.first?.residentKiB else {
            return nil
        }
        return Double(rss - baseline) / Double(point.sessions)
    }

    private func ratio(_ numerator: UInt64?, _ denominator: UInt64?) -> Double? {
        ratio(numerator.map(Double.init), denominator.map(Double.init))
    }

    private func ratio(_ numerator: Double?, _ denominator: Double?) -> Double? {
        guard let numerator, let denominator, denominator > 0 else { return nil }
        return numerator / denominator
    }

    private func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
