import Foundation

// The restart benchmark behind `scripts/bench restart`: how fast a restarted server
// rebuilds its sessions from what the pages show. A release footlight-demo (the auction,
// in a process of its own) gets N sessions, each with a recoverable value set; it is
// killed with SIGKILL and started again on the same port and data directory; every
// page resumes at once with `restore`. Rebuilds per second and per-session times from
// the new process printing its address, against N fresh joins on the restarted
// server; the p50 of R runs, as a Markdown table.
//
//   FootlightRestart [--sessions N] [--runs R] [--server PATH] [--public-directory PATH]
//
// --server defaults to the footlight-demo beside this program, --public-directory to
// ./Public. Exits 1 when a run cannot go on (a server that does not start, pages that
// cannot open); sessions that are not rebuilt whole are reported in the table instead.

/// Ends the program with a readable message (the children are killed on the way out).
func fail(_ message: String, code: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("restart: \(message)\n".utf8))
    exit(code)
}

ExitCleanup.install()
let options: RestartOptions
let setup: DemoServer.Setup
do {
    options = try RestartOptions(Array(CommandLine.arguments.dropFirst()))
    setup = try options.setup()
} catch {
    fail("\(error)\n\(RestartOptions.usage)", code: 2)
}

var results: [RunResult] = []
for number in 1...options.runs {
    do {
        results.append(try await RestartRun(setup: setup, sessions: options.sessions, number: number).measure())
    } catch {
        fail("\(error)")
    }
}
print(RestartReport(results: results, sessions: options.sessions).text)
