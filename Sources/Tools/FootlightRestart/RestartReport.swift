import BenchSupport
import Foundation

/// The benchmark's Markdown: what was measured, a row per run and their p50, the goal,
/// and every session that was not rebuilt whole or did not join.
struct RestartReport {
    let results: [RunResult]
    let sessions: Int

    /// The issue's goal, in sessions rebuilt per second.
    static let goal = 2_000.0

    var text: String {
        let rebuildColumn = "rebuilds/s (goal ≥ \(Format.rate(Self.goal)))"
        var table = MarkdownTable([
            ("run", .left), ("sessions", .right), (rebuildColumn, .right), ("fresh joins/s", .right),
            ("rebuild ÷ fresh", .right), ("rebuild p50", .right), ("rebuild p99", .right),
            ("back → last rebuilt", .right), ("CPU s, rebuild: server / clients", .right),
            ("CPU s, fresh: server / clients", .right), ("not rebuilt whole", .right),
        ])
        for (index, result) in results.enumerated() {
            table.append(
                "\(index + 1)", Format.count(result.sessions), Format.rate(result.rebuildsPerSecond),
                Format.rate(result.joinsPerSecond), Format.ratio(result.ratio),
                Self.time(result.rebuildPercentile(0.5)), Self.time(result.rebuildPercentile(0.99)),
                Format.time(result.lastRebuilt), Self.cpu(result.rebuildCPU), Self.cpu(result.joinCPU),
                Format.count(result.problems.total))
        }
        let rebuilds = median(results.map(\.rebuildsPerSecond)) ?? 0
        table.append(
            "**p50**", Format.count(sessions), "**\(Format.rate(rebuilds))**",
            Format.rate(median(results.map(\.joinsPerSecond)) ?? 0),
            Format.ratio(median(results.compactMap(\.ratio))),
            Self.time(median(results.compactMap { $0.rebuildPercentile(0.5) })),
            Self.time(median(results.compactMap { $0.rebuildPercentile(0.99) })),
            Self.time(median(results.map(\.lastRebuilt))), Self.cpu(median(results.compactMap(\.rebuildCPU))),
            Self.cpu(median(results.compactMap(\.joinCPU))),
            "Σ \(Format.count(results.map(\.problems.total).reduce(0, +)))")

        let cores = ProcessInfo.processInfo.activeProcessorCount
        let lots = (0..<sessions).filter { Page.Kind(index: $0) == .lot }.count
        var lines = [
            "### Restart (`scripts/bench restart`)",
            "",
            "`footlight-demo --app auction` (release build, one service loop per core, not pinned; \(cores) cores) killed with SIGKILL while \(Format.count(sessions)) sessions are open — \(Format.count(sessions - lots)) at `/` with the listings ordered alphabetically, \(Format.count(lots)) at `/lots/lot-2` with an amount typed, both recoverable values acknowledged before the kill — and started again on the same port and data directory; then every page resumes at once with what it shows (`restore`), as the browser runtime does. Rebuilds/s: the sessions rebuilt whole over the time from the new process printing its address to the last resume returning (joined, every stage rebuilt, every mount applied); the per-session times run from the same moment. Fresh joins/s: as many token-less joins at once at the same paths on the restarted server, after the rebuilt pages closed. The clients are FootlightTesting's `TestClient`, all on one libwebsockets client thread (and Swift's task pool) in the benchmark's process, beside the server's on the same cores, so their own costs are in every figure; the CPU columns give the CPU seconds each process used in the phase (at most \(cores) × the phase's wall time), to tell which side was the limit. \(results.count) \(results.count == 1 ? "run" : "runs"), each with a server process and data directory of its own; the p50 row is each column's median over the runs.",
            "",
            table.text,
            "",
            "Goal: at least \(Format.rate(Self.goal)) sessions rebuilt per second (p50 of \(results.count) \(results.count == 1 ? "run" : "runs")): \(rebuilds >= Self.goal ? "met" : "missed") (\(Format.rate(rebuilds))/s).",
        ]
        lines += problemLines(\.problems, "not rebuilt whole")
        lines += problemLines(\.freshFailures, "fresh joins failed")
        if results.allSatisfy({ $0.problems.total == 0 && $0.freshFailures.total == 0 }) {
            lines.append(
                "Every session of every run came back whole: the same stages, the listings' order or the lot's typed amount, no error message, no protocol violation; every fresh join joined."
            )
        }
        return lines.joined(separator: "\n")
    }

    /// A line per run with problems of `kind`, each kind of problem counted, with an example.
    private func problemLines(_ problems: KeyPath<RunResult, ProblemCounts>, _ title: String) -> [String] {
        results.enumerated().compactMap { index, result in
            let counts = result[keyPath: problems]
            guard counts.total > 0 else { return nil }
            let kinds = counts.counts.sorted { $0.value.count > $1.value.count }
                .map { "\($0.key): \($0.value.count) (e.g. \($0.value.example))" }
            return "\n**Run \(index + 1): \(counts.total) \(title).** " + kinds.joined(separator: "; ")
        }
    }

    private static func time(_ duration: Duration?) -> String {
        duration.map(Format.time) ?? "–"
    }

    /// `1.62 / 1.91`: the server's and the clients' CPU seconds.
    private static func cpu(_ use: PhaseCPU?) -> String {
        use.map { String(format: "%.2f / %.2f", $0.server, $0.clients) } ?? "–"
    }
}

/// Each side's median, nil for none.
private func median(_ uses: [PhaseCPU]) -> PhaseCPU? {
    guard let server = median(uses.map(\.server)), let clients = median(uses.map(\.clients)) else { return nil }
    return PhaseCPU(server: server, clients: clients)
}
