import BenchSupport
import FootlightRedis
import FootlightServer
import FootlightTesting
import Foundation

// One change to a shared service reaching every session: N kiosk sessions, each with
// the listings stage open; a bid placed on the shared AuctionService; the time from
// the bid to the last session's patch arriving. The server runs in a child process
// (this program with `serve`), the clients here, on one client-core thread; the bid is
// triggered with SIGUSR1, and timed from sending it. With `--nodes 1,2` (the default)
// it measures one node, then two nodes sharing the auction through a redis-server of
// its own, the sessions split between them and the bid placed on the first.
//
//   FootlightFanout [--sessions N] [--runs R] [--loops L] [--nodes 1,2]

var sessions = 10_000
var runs = 5
var loops = 1
var nodeCounts = [1, 2]
var serveRedis: RedisAddress?
var serveMode = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
let usage = "usage: FootlightFanout [--sessions N] [--runs R] [--loops L] [--nodes 1,2]\n"
while let argument = arguments.next() {
    if argument == "serve" {
        serveMode = true
        continue
    }
    guard let text = arguments.next() else {
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
    if argument == "--redis", let address = RedisAddress(text) {
        serveRedis = address
        continue
    }
    if argument == "--nodes" {
        nodeCounts = text.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
        guard !nodeCounts.isEmpty else {
            FileHandle.standardError.write(Data(usage.utf8))
            exit(2)
        }
        continue
    }
    guard let value = Int(text), value > 0 else {
        FileHandle.standardError.write(Data(usage.utf8))
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
    do { try FanoutServer.run(sessions: sessions, loops: loops, redis: serveRedis) } catch { fail(error) }
}

/// Starts `nodes` server processes (sharing a redis-server of its own when more than
/// one), joins the sessions spread over them and times `runs` bids placed on the first:
/// the first and the last patch of each, from sending the signal.
@MainActor func measure(nodes: Int) throws -> (first: [Duration], last: [Duration]) {
    let redis = nodes > 1 ? try RedisServer.start() : nil
    defer { redis?.stop() }
    var children: [(process: Process, stdin: Pipe)] = []
    defer {
        for child in children {
            try? child.stdin.fileHandleForWriting.close()
            child.process.waitUntilExit()
        }
    }
    var ports: [Int] = []
    for _ in 0..<nodes {
        // A server process: this program in serve mode. Its stdin is ours to close.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments =
            ["serve", "--sessions", "\(sessions / nodes + 100)", "--loops", "\(loops)"]
            + (redis.map { ["--redis", $0.address.description] } ?? [])
        let toChild = Pipe()
        let fromChild = Pipe()
        child.standardInput = toChild
        child.standardOutput = fromChild
        try child.run()
        children.append((child, toChild))
        let greeting = String(decoding: fromChild.fileHandleForReading.availableData, as: UTF8.self)
        guard greeting.hasPrefix("port "),
            let port = Int(greeting.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw FanoutError("a server process said \(greeting.debugDescription)") }
        ports.append(port)
    }

    let clients = try FanoutClients(count: sessions)
    let joinStart = ContinuousClock.now
    try clients.connectAll(ports: ports, timeout: .seconds(300))
    note("\(sessions) sessions joined \(nodes) node(s) in \(ContinuousClock.now - joinStart)")

    var lastTimes: [Duration] = []
    var firstTimes: [Duration] = []
    for run in 1...runs {
        let before = clients.patches
        let start = ContinuousClock.now
        kill(children[0].process.processIdentifier, SIGUSR1)
        try clients.serviceUntil(start + .seconds(60)) {
            zip(clients.patches, before).allSatisfy { $0 > $1 }
        }
        let arrivals = clients.lastPatch.map { $0 - start }
        lastTimes.append(arrivals.max()!)
        firstTimes.append(arrivals.min()!)
        note("\(nodes) node(s), run \(run): first patch after \(arrivals.min()!), last after \(arrivals.max()!)")
        // Let the servers settle between runs.
        let settle = ContinuousClock.now + .milliseconds(300)
        while ContinuousClock.now < settle { try clients.serviceOnce() }
    }
    clients.stop()
    return (firstTimes, lastTimes)
}

func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.1f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
}
func median(_ values: [Duration]) -> Duration { values.sorted()[values.count / 2] }

var results: [(nodes: Int, first: [Duration], last: [Duration])] = []
for nodes in nodeCounts {
    do {
        let (first, last) = try measure(nodes: nodes)
        results.append((nodes, first, last))
    } catch {
        fail(error)
    }
}

func configuration(_ nodes: Int) -> String { nodes == 1 ? "1 node" : "\(nodes) nodes via Redis" }

print("### Fan-out (`scripts/bench fanout`)")
print()
print(
    "One bid on the shared `AuctionService` reaching \(sessions) kiosk sessions, each showing the listings; server processes with \(loops) loop(s) each (with several nodes: the sessions split evenly, the auction and its changes in a redis-server of the run's own, the bid placed on the first node), the \(sessions) clients on one client-core thread in another process; the bid triggered by a signal and timed from sending it; \(runs) runs; time from placing the bid to each session's patch arriving."
)
print()
var table = MarkdownTable([("nodes", .left), ("run", .right), ("first patch", .right), ("last patch", .right)])
for result in results {
    for index in result.last.indices {
        table.append(
            configuration(result.nodes), "\(index + 1)", milliseconds(result.first[index]),
            milliseconds(result.last[index]))
    }
    table.append(
        configuration(result.nodes), "**p50**", milliseconds(median(result.first)),
        "**\(milliseconds(median(result.last)))**")
}
print(table.text)
print()
for result in results {
    let goal: Duration = result.nodes == 1 ? .milliseconds(250) : .milliseconds(300)
    let p50 = median(result.last)
    var line =
        "\(configuration(result.nodes)): the last patch within \(milliseconds(goal)) (p50 of \(runs) runs): \(p50 < goal ? "met" : "missed") (\(milliseconds(p50)))"
    if let single = results.first(where: { $0.nodes == 1 }), result.nodes > 1 {
        line += String(format: ", %.2f× one node's", p50 / median(single.last))
    }
    print(line + ".")
}
