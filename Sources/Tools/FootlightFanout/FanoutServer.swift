import DemoApp
import Dispatch
import Footlight
import FootlightRedis
import FootlightServer
import Foundation

/// The server half of the fan-out benchmark, in a process of its own (one process
/// cannot hold both ends of 10,000 sockets under a 20,000-descriptor limit): the kiosk
/// on a still clock, and a bid on the first open lot each time the driver asks.
enum FanoutServer {
    /// Serves until stdin closes; prints "port N" once listening. Then, on "watch",
    /// answers "watching" and, once every session has been written a message more,
    /// "written NS" (the last write, on ``System/monotonicNanoseconds``); on "bid", places
    /// a bid on the first open lot and answers "changed NS" (just before placing it).
    /// With `redis`, a node of a cluster: the auction in Redis, its changes through Redis
    /// pub/sub. With `floor`, the transport's floor: the clients are connections of the
    /// echo endpoint, and "floor N" writes one N-byte patch-like message to each of them
    /// (answering "changed NS" just before), with no session in between.
    static func run(sessions: Int, loops: Int, redis: RedisAddress?, floor: Bool) throws -> Never {
        // A still clock: lots never close and "time left" never changes, so every patch a
        // session gets after joining is the bid's.
        let clock = ManualAuctionClock()
        let auction: AuctionService
        var pubSub: RedisPubSub?
        if let redis {
            let backplane = try RedisPubSub(.init(address: redis))
            pubSub = backplane
            auction = try AuctionService(
                lots: AuctionCatalogue.lots(), clock: clock, ledger: RedisAuctionLedger(address: redis),
                pubSub: backplane)
            let deadline = ContinuousClock.now + .seconds(10)
            while !backplane.isLive {
                guard ContinuousClock.now < deadline else { throw FanoutError("no Redis subscription at \(redis)") }
                usleep(10_000)
            }
        } else {
            auction = AuctionService(lots: AuctionCatalogue.lots(), clock: clock)
        }
        let services = KioskServices(
            auction: auction, tick: .seconds(3600), latency: .milliseconds(1), pubSub: pubSub ?? LocalPubSub())
        var configuration = ServerConfiguration(publicDirectory: FileManager.default.temporaryDirectory.path)
        configuration.port = 0
        configuration.loops = loops
        configuration.maximumConnections = sessions + 100
        configuration.maximumConnectionsPerClient = sessions + 100
        configuration.logger.logLevel = .warning
        if floor { configuration.echoPath = FanoutClients.echoPath }
        let server = try Server(configuration: configuration, app: KioskApp.entry(services))
        guard let lotID = auction.lots.first(where: { !$0.isClosed })?.id else { throw FanoutError("no open lot") }

        FileHandle.standardOutput.write(Data("port \(server.port)\n".utf8))
        // The driver's commands, a line each; it closes our stdin when it is done (or dies).
        let watching = DispatchQueue(label: "fanout.watch")
        while let command = readLine() {
            switch command {
            case "watch":
                // Every session (for the floor, every echo connection) of this node gets
                // one patch per bid: report when the last of them was written.
                let expected = floor ? server.openConnectionCount : server.sessionCount
                let baseline = server.sentMessageCount
                watching.async { reportWrites(of: server, after: baseline, expected: expected) }
                say("watching")
            case "bid":
                let minimum = auction.lot(lotID)?.minimumNextBidCents ?? 0
                let changed = System.monotonicNanoseconds
                if case .failure(let error) = auction.placeBid(
                    lotID: lotID, amountCents: minimum, bidder: "fanout-bench")
                {
                    FileHandle.standardError.write(Data("fanout server: the bid was refused: \(error)\n".utf8))
                }
                say("changed \(changed)")
            case _ where command.hasPrefix("floor "):
                let payload = floorMessage(bytes: Int(command.dropFirst(6)) ?? 0)
                let changed = System.monotonicNanoseconds
                server.sendToEchoConnections(payload)
                say("changed \(changed)")
            default:
                FileHandle.standardError.write(
                    Data("fanout server: unknown command \(command.debugDescription)\n".utf8))
            }
        }
        server.shutdown(drainTimeout: .zero)
        pubSub?.shutdown()
        exit(0)
    }

    /// Waits (up to 60 s) until `server` has written `expected` messages after
    /// `baseline`, then says when it wrote the last of them.
    private static func reportWrites(of server: Server, after baseline: Int, expected: Int) {
        let deadline = ContinuousClock.now + .seconds(60)
        while server.sentMessageCount - baseline < expected, ContinuousClock.now < deadline {
            usleep(1_000)
        }
        let written = server.sentMessageCount - baseline
        guard written >= expected else {
            say("unfinished \(written) of \(expected)")
            return
        }
        say("written \(server.lastMessageSentNanoseconds)")
    }

    /// A message shaped like a card's patch (`{"t":"patch",…}`), `bytes` long (at least
    /// as long as its frame).
    static func floorMessage(bytes: Int) -> [UInt8] {
        let head =
            Wire.opening(Wire.Server.patch.rawValue, .seq) + Array("1".utf8) + Wire.member(.operations)
            + Array(#"[{"op":"replace","path":"/lot/bid","value":""#.utf8)
        let tail = Array(#""}]}"#.utf8)
        let filler = [UInt8](repeating: UInt8(ascii: "0"), count: max(0, bytes - head.count - tail.count))
        return head + filler + tail
    }

    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("\(line)\n".utf8))
    }
}
