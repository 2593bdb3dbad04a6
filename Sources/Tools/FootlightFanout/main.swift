import BenchSupport
import FootlightRedis
import FootlightServer
import FootlightTesting
import Foundation

// One change to a shared service reaching every session: N kiosk sessions, each with
// the listings stage open; a bid placed on the shared AuctionService; the time from
// the bid to the last session's patch written by the server (its goal), and to the
// first and last patch arriving here. The server runs in a child process (this program
// with `serve`), the clients here, on one client-core thread; the bid is placed when
// the driver asks on the child's stdin. With `--nodes 1,2` (the default)
// it measures one node, then two nodes sharing the auction through a redis-server of
// its own, the sessions split between them and the bid placed on the first.
// Then, in the same run, the transport's floor: one server process with as many
// connections of its echo endpoint, each written one message of the size of the bid's
// patch at once, with no session in between (`--floor 0` leaves it out).
//
//   FootlightFanout [--sessions N] [--runs R] [--loops L] [--nodes 1,2] [--floor 1|0]

var sessions = 10_000
var runs = 5
/// The server's default: one loop per core (``ServerConfiguration/loops``).
var loops = max(1, System.coreCount)
var nodeCounts = [1, 2]
var measureFloor = true
var serveRedis: RedisAddress?
var serveMode = false
var serveFloor = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
let usage = "usage: FootlightFanout [--sessions N] [--runs R] [--loops L] [--nodes 1,2] [--floor 1|0]\n"
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
    if argument == "--floor", let value = Int(text), value == 0 || value == 1 {
        if serveMode { serveFloor = value == 1 } else { measureFloor = value == 1 }
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
    do { try FanoutServer.run(sessions: sessions, loops: loops, redis: serveRedis, floor: serveFloor) } catch {
        fail(error)
    }
}

/// One run's times: from the bid to the last patch written by a server, and from
/// asking for the bid to the first and the last patch arriving at the clients.
struct RunTimes {
    var written: Duration
    var first: Duration
    var last: Duration
    /// CPU time the server processes used from asking for the bid to the last arrival.
    var serverCPU: Double
}

/// Starts `nodes` server processes (sharing a redis-server of its own when more than
/// one), joins the sessions spread over them and times `runs` bids placed on the first.
/// With `floorBytes`, one server process and echo connections instead, each written one
/// message of that size per run. Returns the runs' times and the size of the last
/// patch the clients got (the median over the clients).
@MainActor func measure(nodes: Int, floorBytes: Int? = nil) throws -> (runs: [RunTimes], patchBytes: Int) {
    let redis = nodes > 1 ? try RedisServer.start() : nil
    defer { redis?.stop() }
    var children: [(process: Process, stdin: Pipe, lines: LineReader)] = []
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
            + (floorBytes == nil ? [] : ["--floor", "1"])
        let toChild = Pipe()
        let fromChild = Pipe()
        child.standardInput = toChild
        child.standardOutput = fromChild
        try child.run()
        let lines = LineReader(fromChild.fileHandleForReading)
        children.append((child, toChild, lines))
        let greeting = lines.next(startingWith: [""])
        guard let greeting, greeting.hasPrefix("port "), let port = Int(greeting.dropFirst(5)) else {
            throw FanoutError("a server process said \(greeting.debugDescription)")
        }
        ports.append(port)
    }
    func tell(_ child: Int, _ command: String) {
        children[child].stdin.fileHandleForWriting.write(Data("\(command)\n".utf8))
    }
    /// The number a child's next line starting with `word` carries (its lines may come
    /// in any order: a watch answers from a thread of its own).
    func answer(_ child: Int, _ word: String) throws -> UInt64 {
        guard let line = children[child].lines.next(startingWith: [word, "unfinished"]) else {
            throw FanoutError("server \(child + 1) ended before saying \(word)")
        }
        guard line.hasPrefix(word + " "), let value = UInt64(line.dropFirst(word.count + 1)) else {
            throw FanoutError("server \(child + 1): \(line)")
        }
        return value
    }

    /// CPU seconds the server processes have used.
    func serverCPU() -> Double {
        children.reduce(0) { $0 + (CPUTime.seconds(pid: $1.process.processIdentifier) ?? 0) }
    }

    let clients = try FanoutClients(count: sessions, target: floorBytes == nil ? .kiosk : .echo)
    let joinStart = ContinuousClock.now
    try clients.connectAll(ports: ports, timeout: .seconds(300))
    let label = floorBytes == nil ? "\(nodes) node(s)" : "the floor"
    note("\(sessions) clients joined \(label) in \(ContinuousClock.now - joinStart)")

    var times: [RunTimes] = []
    for run in 1...runs {
        // Let the servers settle first: whatever the joins still had to send (a first
        // run counted it among the bid's writes, and reported its last write early).
        let settle = ContinuousClock.now + .milliseconds(300)
        while ContinuousClock.now < settle { try clients.serviceOnce() }
        for child in children.indices {
            tell(child, "watch")
            guard children[child].lines.next(startingWith: ["watching"]) != nil else {
                throw FanoutError("server \(child + 1) did not watch")
            }
        }
        let before = clients.patches
        let cpuBefore = serverCPU()
        let start = ContinuousClock.now
        tell(0, floorBytes.map { "floor \($0)" } ?? "bid")
        try clients.serviceUntil(start + .seconds(60)) {
            zip(clients.patches, before).allSatisfy { $0 > $1 }
        }
        let arrivals = clients.lastPatch.map { $0 - start }
        let cpu = serverCPU() - cpuBefore
        // Server times on the machine's monotonic clock, shared by the processes.
        let changed = try answer(0, "changed")
        let lastWrite = try children.indices.map { try answer($0, "written") }.max()!
        let written = Duration.nanoseconds(Int64(lastWrite) - Int64(changed))
        times.append(RunTimes(written: written, first: arrivals.min()!, last: arrivals.max()!, serverCPU: cpu))
        note(
            "\(label), run \(run): last patch written after \(written); first arrived after \(arrivals.min()!), last after \(arrivals.max()!); server CPU \(cpu) s"
        )
    }
    clients.stop()
    return (times, clients.lastPatchBytes.sorted()[clients.lastPatchBytes.count / 2])
}

func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.1f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
}
/// The p50 of a configuration's runs (there is at least one: `--runs` is positive).
func p50<T: Comparable>(_ values: [T]) -> T { median(values)! }

/// What a row of the table measured: kiosk sessions on `nodes` nodes, or the floor.
struct Configuration {
    let nodes: Int
    let isFloor: Bool
    var name: String { isFloor ? "transport floor" : nodes == 1 ? "1 node" : "\(nodes) nodes via Redis" }
}

var results: [(configuration: Configuration, runs: [RunTimes])] = []
var patchBytes: Int?
for nodes in nodeCounts {
    do {
        let measured = try measure(nodes: nodes)
        results.append((Configuration(nodes: nodes, isFloor: false), measured.runs))
        patchBytes = patchBytes ?? measured.patchBytes
    } catch {
        fail(error)
    }
}
if measureFloor, let patchBytes {
    do {
        results.append((Configuration(nodes: 1, isFloor: true), try measure(nodes: 1, floorBytes: patchBytes).runs))
    } catch {
        fail(error)
    }
}

print("### Fan-out (`scripts/bench fanout`)")
print()
print(
    "One bid on the shared `AuctionService` reaching \(sessions) kiosk sessions, each showing the listings; server processes with \(loops) loop(s) each (with several nodes: the sessions split evenly, the auction and its changes in a redis-server of the run's own, the bid placed on the first node), the \(sessions) clients on one client-core thread in another process; \(runs) runs. *Last written*: from placing the bid to the last of its patches written to a socket by a server (the goal), on the machine's monotonic clock. *First* and *last arrived*: from asking for the bid to a client reading the patch (the clients' one thread reads 10,000 sockets, so this includes their backlog). *Server CPU*: user and system time of the server processes over the run (10 ms resolution), and per session. *Transport floor*: one server process with the same loops and \(sessions) connections of its echo endpoint, each written one message of the bid's patch's size (\(patchBytes.map { "\($0) bytes" } ?? "not measured")) in one piece of work per loop: the same sockets and bytes with no session, Director, diff or encoding."
)
print()
var table = MarkdownTable([
    ("configuration", .left), ("run", .right), ("last written", .right), ("first arrived", .right),
    ("last arrived", .right),
    ("server CPU", .right),
])
@MainActor func cpu(_ seconds: Double) -> String {
    String(format: "%.0f ms · %.1f µs/session", seconds * 1000, seconds * 1e6 / Double(sessions))
}
for result in results {
    for (index, run) in result.runs.enumerated() {
        table.append(
            result.configuration.name, "\(index + 1)", milliseconds(run.written), milliseconds(run.first),
            milliseconds(run.last), cpu(run.serverCPU))
    }
    table.append(
        result.configuration.name, "**p50**", "**\(milliseconds(p50(result.runs.map(\.written))))**",
        milliseconds(p50(result.runs.map(\.first))), milliseconds(p50(result.runs.map(\.last))),
        cpu(p50(result.runs.map(\.serverCPU))))
}
print(table.text)
print()
let floor = results.first { $0.configuration.isFloor }
for result in results where !result.configuration.isFloor {
    let nodes = result.configuration.nodes
    let goal: Duration = nodes == 1 ? .milliseconds(250) : .milliseconds(300)
    let written = p50(result.runs.map(\.written))
    var line =
        "\(result.configuration.name): the last patch written within \(milliseconds(goal)) (p50 of \(runs) runs): \(written < goal ? "met" : "missed") (\(milliseconds(written)); last arrived \(milliseconds(p50(result.runs.map(\.last)))))"
    if let single = results.first(where: { $0.configuration.nodes == 1 && !$0.configuration.isFloor }), nodes > 1 {
        line += String(format: ", %.2f× one node's", written / p50(single.runs.map(\.written)))
    }
    if let floor, nodes == 1 {
        let floorP50 = p50(floor.runs.map(\.written))
        let floorCPU = p50(floor.runs.map(\.serverCPU))
        line += String(format: "; %.2f× the transport floor's time (", written / floorP50) + milliseconds(floorP50)
        line += String(format: "), %.2f× its server CPU", p50(result.runs.map(\.serverCPU)) / max(floorCPU, 0.01))
    }
    print(line + ".")
}
