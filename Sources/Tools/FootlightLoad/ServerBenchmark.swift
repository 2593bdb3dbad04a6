import Foundation

/// What the server benchmark measures, from the command line.
struct BenchmarkOptions {
    var port = 0
    var serverPID: Int32 = 0
    /// The core the server is pinned to (-1: not pinned).
    var serverCore = -1
    /// Concurrent connections for the closed-loop rows.
    var levels = [1, 100, 1_000, 10_000]
    /// Joined idle sessions at which the server's RSS is read; the largest is the hold check.
    var idleLevels = [1_000, 10_000]
    var warmup = 1.0
    var measure = 3.0
    /// Closed-loop rounds per level, each measuring the echo and Footlight back to back
    /// (in alternating order): the targets are judged on the median of the rounds' ratios.
    var rounds = 3
    var batch = 200
    var stallSeconds = 15.0
    var footlightPath = "/ws"
    var echoPath = "/echo"
}

/// Everything one run measured.
struct BenchmarkResults {
    /// One round of a level: the Footlight closed loop and the echo floor's, measured
    /// back to back.
    struct Round {
        var footlight: LoadGenerator.LoopResult?
        var echo: LoadGenerator.LoopResult?
    }
    /// One concurrency level: its rounds, in the order measured.
    struct Level {
        let sessions: Int
        var rounds: [Round] = []
        var problems: [String] = []
    }
    /// The server's VmRSS with `sessions` joined idle sessions.
    struct Memory {
        let sessions: Int
        let joined: Int
        let residentKiB: Int?
    }

    var options: BenchmarkOptions
    var levels: [Level] = []
    var memory: [Memory] = []
    /// Sessions joined and still open after the hold, of the largest idle level.
    var held: (target: Int, joined: Int, dropped: Int)?
    var holdProblem: String?
}

/// The server benchmark: warm-up, RSS with 0 and N idle sessions (and the hold check),
/// then, per level, rounds of a closed loop against the echo endpoint and the Footlight
/// endpoint back to back, so that each round's ratio compares runs minutes apart at most.
struct ServerBenchmark {
    let options: BenchmarkOptions

    func run() throws(LoadError) -> BenchmarkResults {
        let generator = try LoadGenerator(
            port: options.port, footlightPath: options.footlightPath, echoPath: options.echoPath,
            batchSize: options.batch, stallSeconds: options.stallSeconds)
        generator.serverPID = options.serverPID
        generator.serverCore = options.serverCore
        var results = BenchmarkResults(options: options)

        progress("warming up")
        for endpoint in [Endpoint.footlight, .echo] {
            let ramp = try generator.open(8, to: endpoint)
            guard ramp.ready == 8 else {
                let path = endpoint == .echo ? options.echoPath : options.footlightPath
                throw .server(
                    "warm-up: only \(ramp.ready) of 8 \(endpoint) connections to \(path) opened; "
                        + (generator.firstProblem ?? "no reason given"))
            }
            _ = try generator.runClosedLoop(warmup: 0, measure: 1)
            try generator.closeAll()
        }
        try generator.settle(seconds: 1)
        results.memory.append(.init(sessions: 0, joined: 0, residentKiB: try serverRSS()))

        // Joined idle sessions: RSS at each level; the largest must hold.
        var heldLoop: LoadGenerator.LoopResult?
        let idleLevels = options.idleLevels.sorted()
        for target in idleLevels {
            let more = target - generator.readyCount
            progress("opening \(more) more sessions (\(target) joined idle)")
            let ramp = try generator.open(more, to: .footlight)
            progress(String(format: "  %d joined, %d failed in %.1f s", ramp.ready, ramp.failed, ramp.seconds))
            try generator.settle(seconds: 1)
            results.memory.append(.init(sessions: target, joined: generator.readyCount, residentKiB: try serverRSS()))
            if ramp.failed > 0 { results.holdProblem = generator.firstProblem }
        }
        if let target = idleLevels.last {
            try generator.settle(seconds: 2)
            results.held = (target, generator.readyCount, generator.unexpectedCloses)
            if generator.readyCount != target, results.holdProblem == nil {
                results.holdProblem = generator.firstProblem
            }
            if options.levels.contains(target), generator.readyCount == target {
                progress("closed loop over the \(target) held sessions")
                heldLoop = try generator.runClosedLoop(warmup: options.warmup, measure: options.measure)
            }
        }
        progress("closing")
        try generator.closeAll()
        try generator.settle(seconds: 0.5)

        for sessions in options.levels.sorted() {
            var level = BenchmarkResults.Level(sessions: sessions)
            for index in 0..<max(1, options.rounds) {
                var round = BenchmarkResults.Round()
                // Alternating which goes first, so a machine slowing down or speeding up
                // over a level does not favour one side.
                let order: [Endpoint] = index % 2 == 0 ? [.echo, .footlight] : [.footlight, .echo]
                for endpoint in order {
                    let result: LoadGenerator.LoopResult?
                    if endpoint == .footlight, index == 0, let heldLoop, heldLoop.connections == sessions {
                        result = heldLoop
                    } else {
                        progress("round \(index + 1) of \(max(1, options.rounds))")
                        result = try measure(sessions, endpoint, with: generator, problems: &level.problems)
                    }
                    if endpoint == .footlight { round.footlight = result } else { round.echo = result }
                }
                level.rounds.append(round)
            }
            results.levels.append(level)
        }
        return results
    }

    /// Opens `sessions` connections to `endpoint`, runs the closed loop, closes them.
    private func measure(
        _ sessions: Int, _ endpoint: Endpoint, with generator: LoadGenerator, problems: inout [String]
    ) throws(LoadError) -> LoadGenerator.LoopResult? {
        progress("\(endpoint): \(sessions) connection(s)")
        _ = try serverRSS()
        generator.firstProblem = nil
        let ramp = try generator.open(sessions, to: endpoint)
        var result: LoadGenerator.LoopResult?
        if ramp.ready == sessions {
            result = try generator.runClosedLoop(warmup: options.warmup, measure: options.measure)
            progress(String(format: "  %.0f round trips/s", result!.perSecond))
        } else {
            problems.append(
                "\(endpoint): only \(ramp.ready) of \(sessions) connected (\(generator.firstProblem ?? "no reason given"))"
            )
        }
        try generator.closeAll()
        try generator.settle(seconds: 0.3)
        return result
    }

    /// The server's VmRSS; throws when the server process is gone.
    private func serverRSS() throws(LoadError) -> Int? {
        guard options.serverPID > 0 else { return nil }
        guard let kib = ResidentMemory.kibibytes(pid: options.serverPID) else {
            throw .server("the server process \(options.serverPID) is gone")
        }
        return kib
    }

    private func progress(_ text: String) {
        FileHandle.standardError.write(Data("server bench: \(text)\n".utf8))
    }
}
