// FootlightLoad: the load generator behind `scripts/bench server`. Drives a running
// footlight-demo (started with --echo-path) over loopback from one thread and prints
// Markdown tables: round trips and throughput against the echo floor, server memory
// per session, and the targets.
//
//   FootlightLoad --port PORT [--server-pid PID] [--server-core N] [--levels 1,100,1000,10000]
//                 [--idle 1000,10000] [--warmup S] [--measure S] [--rounds R] [--batch N]
//                 [--echo-path /echo] [--stall S]
//
// Exits 1 when the server misbehaves (a wrong reply, an error, a hang, a crash).

import Foundation

func usage() -> String {
    """
    usage: FootlightLoad --port PORT [--server-pid PID] [--server-core N] [--levels N,N,...] [--idle N,N,...]
                         [--warmup SECONDS] [--measure SECONDS] [--rounds R] [--batch N] [--echo-path PATH]
                         [--stall SECONDS]
    """
}

func fail(_ message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(code)
}

/// Reads the command line into options; exits with usage on anything unexpected.
func parseOptions(_ commandLine: [String]) -> BenchmarkOptions {
    var options = BenchmarkOptions()
    var arguments = commandLine[...]
    func value(for name: String) -> String {
        guard let value = arguments.popFirst() else { fail("\(name) needs a value\n" + usage()) }
        return value
    }
    func number(for name: String) -> Double {
        guard let number = Double(value(for: name)), number >= 0 else { fail("\(name) needs a number\n" + usage()) }
        return number
    }
    func counts(for name: String) -> [Int] {
        let list = value(for: name).split(separator: ",").compactMap { Int($0) }
        guard !list.isEmpty, list.allSatisfy({ $0 > 0 }) else { fail("\(name) needs positive counts\n" + usage()) }
        return list
    }
    while let argument = arguments.popFirst() {
        switch argument {
        case "-h", "--help":
            print(usage())
            exit(0)
        case "--port": options.port = Int(number(for: argument))
        case "--server-pid": options.serverPID = Int32(number(for: argument))
        case "--server-core": options.serverCore = Int(number(for: argument))
        case "--levels": options.levels = counts(for: argument)
        case "--idle": options.idleLevels = counts(for: argument)
        case "--warmup": options.warmup = number(for: argument)
        case "--measure": options.measure = max(0.1, number(for: argument))
        case "--rounds": options.rounds = max(1, Int(number(for: argument)))
        case "--batch": options.batch = max(1, Int(number(for: argument)))
        case "--stall": options.stallSeconds = max(1, number(for: argument))
        case "--echo-path": options.echoPath = value(for: argument)
        default: fail("unknown argument \"\(argument)\"\n" + usage())
        }
    }
    return options
}

let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
guard options.port > 0 else { fail("--port is required\n" + usage()) }

do {
    let results = try ServerBenchmark(options: options).run()
    print(Report(results: results).text)
} catch {
    fail(
        error.isServerFault ? "FootlightLoad: SERVER PROBLEM: \(error)" : "FootlightLoad: \(error)",
        code: error.isServerFault ? 1 : 2)
}
