import BenchSupport
import DemoApp
import FootlightServer
import Foundation

// One change to a shared service reaching every session: N kiosk sessions, each with
// the listings stage open, on an in-process server; a bid placed on the shared
// AuctionService; the time from the bid to the last session's patch arriving (the
// patches are read on this thread while the server writes them on its loop).
//
//   FootlightFanout [--sessions N] [--runs R] [--loops L]

var sessions = 10_000
var runs = 5
var loops = 1
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
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

// A still clock: lots never close and "time left" never changes, so every patch a
// session gets after joining is the bid's.
let auction = AuctionService(lots: AuctionCatalogue.lots(), clock: ManualAuctionClock())
let services = KioskServices(auction: auction, tick: .seconds(3600), latency: .milliseconds(1))
var configuration = ServerConfiguration(publicDirectory: FileManager.default.temporaryDirectory.path)
configuration.port = 0
configuration.loops = loops
configuration.maximumConnections = sessions + 100
configuration.maximumConnectionsPerClient = sessions + 100
configuration.logger.logLevel = .warning
let server = try Server(configuration: configuration, app: KioskApp.entry(services))
let clients = try FanoutClients(count: sessions)
let joinStart = ContinuousClock.now
try clients.connectAll(port: server.port, timeout: .seconds(300))
note("\(sessions) sessions joined in \(ContinuousClock.now - joinStart)")

var lastTimes: [Duration] = []
var firstTimes: [Duration] = []
guard let lotID = auction.lots.first(where: { !$0.isClosed })?.id else { throw FanoutError("no open lot") }
for run in 1...runs {
    let before = clients.patches
    let minimum = auction.lot(lotID)?.minimumNextBidCents ?? 0
    let start = ContinuousClock.now
    guard case .success = auction.placeBid(lotID: lotID, amountCents: minimum, bidder: "fanout-bench") else {
        throw FanoutError("the bid was refused")
    }
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
server.shutdown()

func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.1f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
}
func median(_ values: [Duration]) -> Duration { values.sorted()[values.count / 2] }

print("### Fan-out (`scripts/bench fanout`)")
print()
print(
    "One bid on the shared `AuctionService` reaching \(sessions) kiosk sessions, each showing the listings; in-process server with \(loops) loop(s), the \(sessions) clients on one client-core thread in the same process; \(runs) runs; time from placing the bid to each session's patch arriving."
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
