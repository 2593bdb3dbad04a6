import BenchSupport
import FootlightServer
import Foundation

// One change to a shared service reaching every session: N kiosk sessions, each with
// the listings stage open; a bid placed on the shared AuctionService; the time from
// the bid to the last session's patch arriving. The server runs in a child process
// (this program with `serve`), the clients here, on one client-core thread; the bid is
// triggered with SIGUSR1, and timed from sending it.
//
//   FootlightFanout [--sessions N] [--runs R] [--loops L]

var sessions = 10_000
var runs = 5
var loops = 1
var serveMode = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    if argument == "serve" {
        serveMode = true
        continue
    }
    guard let value = arguments.next().flatMap(Int.init), value > 0 else {
        FileHandle.standardError.write(Data("usage: FootlightFanout [--sessions N] [--runs R] [--loops L]\n".utf8))
        exit(2)
    }
    switch argument {
    case "--sessions": sessions = value
    case "--runs": runs = value
    case "--loops": loops = value
    default:
        FileHandle.standardError.write(Data("unknown option \(argument)\n".utf8))
        exit(2)
    }
}

func note(_ text: String) {
    FileHandle.standardError.write(Data("fanout: \(text)\n".utf8))
}

/// Ends the program with a readable message instead of a crash report.
func fail(_ error: any Error) -> Never {
    FileHandle.standardError.write(Data("fanout: \(error)\n".utf8))
    exit(1)
}

if serveMode {
    do { try FanoutServer.run(sessions: sessions, loops: loops) } catch { fail(error) }
}

/// Starts the server process, joins the sessions and times `runs` bids: the first and
/// the last patch of each, from sending the signal.
@MainActor func measure() throws -> (first: [Duration], last: [Duration]) {
    // The server process: this program in serve mode. Its stdin is ours to close.
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["serve", "--sessions", "\(sessions)", "--loops", "\(loops)"]
    let toChild = Pipe()
    let fromChild = Pipe()
    child.standardInput = toChild
    child.standardOutput = fromChild
    try child.run()
    defer { try? toChild.fileHandleForWriting.close() }
    let greeting = String(decoding: fromChild.fileHandleForReading.availableData, as: UTF8.self)
    guard greeting.hasPrefix("port "),
        let port = Int(greeting.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
    else { throw FanoutError("the server process said \(greeting.debugDescription)") }

    let clients = try FanoutClients(count: sessions)
    let joinStart = ContinuousClock.now
    try clients.connectAll(port: port, timeout: .seconds(300))
    note("\(sessions) sessions joined in \(ContinuousClock.now - joinStart)")

    var lastTimes: [Duration] = []
    var firstTimes: [Duration] = []
    for run in 1...runs {
        let before = clients.patches
        let start = ContinuousClock.now
        kill(child.processIdentifier, SIGUSR1)
        try clients.serviceUntil(start + .seconds(60)) {
            zip(clients.patches, before).allSatisfy { $0 > $1 }
        }
        let arrivals = clients.lastPatch.map { $0 - start }
        lastTimes.append(arrivals.max()!)
        firstTimes.append(arrivals.min()!)
        note("run \(run): first patch after \(arrivals.min()!), last after \(arrivals.max()!)")
        // Let the server settle between runs.
        let settle = ContinuousClock.now + .milliseconds(300)
        while ContinuousClock.now < settle { try clients.serviceOnce() }
    }
    clients.stop()
    try? toChild.fileHandleForWriting.close()
    child.waitUntilExit()
    return (firstTimes, lastTimes)
}

func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.1f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
}
func median(_ values: [Duration]) -> Duration { values.sorted()[values.count / 2] }

let (firstTimes, lastTimes): ([Duration], [Duration])
do { (firstTimes, lastTimes) = try measure() } catch { fail(error) }

print("### Fan-out (`scripts/bench fanout`)")
print()
print(
    "One bid on the shared `AuctionService` reaching \(sessions) kiosk sessions, each showing the listings; a server process with \(loops) loop(s), the \(sessions) clients on one client-core thread in another process; the bid triggered by a signal and timed from sending it; \(runs) runs; time from placing the bid to each session's patch arriving."
)
print()
var table = MarkdownTable([("run", .right), ("first patch", .right), ("last patch", .right)])
for index in lastTimes.indices {
    table.append("\(index + 1)", milliseconds(firstTimes[index]), milliseconds(lastTimes[index]))
}
table.append("**p50**", milliseconds(median(firstTimes)), "**\(milliseconds(median(lastTimes)))**")
print(table.text)
print()
let met = median(lastTimes) < .milliseconds(250)
print(
    "Target: the last patch within 250 ms (p50 of \(runs) runs): \(met ? "met" : "missed") (\(milliseconds(median(lastTimes))))."
)
