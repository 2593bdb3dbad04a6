import Dispatch
import Footlight
import FootlightRedis
import FootlightTesting
import Foundation
import Testing

@testable import DemoApp

/// The auction across nodes: AuctionServices (nodes) sharing one Redis ledger and
/// exchanging lots' records through Redis pub/sub, on a `redis-server` of the test's own.
@Suite(.timeLimit(.minutes(2)))
struct RedisAuctionTests {
    /// A node: an auction service on the Redis ledger, with its own pub/sub connection.
    final class Node: Sendable {
        let pubSub: RedisPubSub
        let service: AuctionService

        init(
            _ redis: RedisServer, lots: [Lot], clock: any AuctionClock = ManualAuctionClock(),
            relistAfter: Duration? = nil
        ) throws {
            pubSub = try RedisPubSub(
                .init(
                    address: redis.address, heartbeat: .milliseconds(250), initialBackoff: .milliseconds(50),
                    maximumBackoff: .milliseconds(250)))
            service = try AuctionService(
                lots: lots, clock: clock, ledger: RedisAuctionLedger(address: redis.address),
                relistAfter: relistAfter, pubSub: pubSub)
        }

        deinit { pubSub.shutdown() }
    }

    static let lots = [AuctionFixtures.lot(1, startingCents: 10_000), AuctionFixtures.lot(2, startingCents: 50_000)]

    @Test("A bid through node A reaches node B's subscribers once; both show the ledger's lot")
    func bidReachesTheOtherNode() async throws {
        let redis = try RedisServer.start()
        defer { redis.stop() }
        let (a, b) = try (Node(redis, lots: Self.lots), Node(redis, lots: Self.lots))
        try await until("both nodes subscribed") { a.pubSub.isLive && b.pubSub.isLive }
        let queue = DispatchQueue(label: "subscriber on B")
        let seen = LockedList<[Lot]>()
        let (initial, subscription) = b.service.subscribe(on: queue) { seen.append($0) }
        #expect(initial.allSatisfy { $0.bidCount == 0 })

        let bid = try a.service.placeBid(lotID: "lot-1", amountCents: 10_000, bidder: "ada@example.com").get()
        try await until("node B to show the bid") { b.service.lot("lot-1")?.bidCount == 1 }
        try await Task.sleep(for: .milliseconds(200))
        queue.sync {}
        #expect(seen.values.count == 1, "one snapshot for one bid")
        #expect(seen.values.last?.first?.highestBidder == "ada@example.com")
        let (onA, onB) = try (#require(a.service.lot("lot-1")), #require(b.service.lot("lot-1")))
        #expect(
            [onB.bidCount, onB.currentBidCents] == [onA.bidCount, onA.currentBidCents]
                && onB.highestBidder == onA.highestBidder)
        // Each node's clock started at zero at its own moment: the same wall-clock time.
        #expect(abs((onB.closesAt - onA.closesAt).seconds) < 0.5)
        #expect(b.service.bids(onLot: "lot-1").map(\.sequence) == [bid.sequence])
        #expect(
            b.service.placeBid(lotID: "lot-1", amountCents: 10_000, bidder: "grace@example.com")
                == .failure(.tooLow(minimumCents: 12_500)), "node B checks against node A's bid")
        subscription.cancel()
    }

    @Test("1,000 bids at once over two nodes: each accepted one recorded once and shown everywhere")
    func concurrentBidsOverTwoNodes() async throws {
        let redis = try RedisServer.start()
        defer { redis.stop() }
        let nodes = try [Node(redis, lots: Self.lots), Node(redis, lots: Self.lots)]
        try await until("both nodes subscribed") { nodes.allSatisfy(\.pubSub.isLive) }
        let accepted = LockedList<Bid>()
        let refused = LockedList<BidError>()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            let node = nodes[thread % 2]
            for index in 0..<125 {
                let lotID = index % 4 == 0 ? "lot-2" : "lot-1"
                let minimum = node.service.lot(lotID)?.minimumNextBidCents ?? 0
                switch node.service.placeBid(lotID: lotID, amountCents: minimum, bidder: "bidder-\(thread)") {
                case .success(let bid): accepted.append(bid)
                case .failure(let error): refused.append(error)
                }
            }
        }
        #expect(accepted.values.count + refused.values.count == 1_000)
        #expect(refused.values.allSatisfy { if case .tooLow = $0 { true } else { false } })
        for lotID in ["lot-1", "lot-2"] {
            let history = nodes[0].service.bids(onLot: lotID)
            let mine = accepted.values.filter { $0.lotID == lotID }
            #expect(history.count == mine.count, "\(lotID): every accepted bid once, no other")
            #expect(Set(history.map(\.sequence)) == Set(mine.map(\.sequence)))
            for (earlier, later) in zip(history, history.dropFirst()) {
                #expect(later.amountCents >= earlier.amountCents + Lot.minimumIncrement(above: earlier.amountCents))
                #expect(later.placedAt >= earlier.placedAt)
            }
            try await until("both nodes to show \(lotID)'s last bid") {
                nodes.allSatisfy {
                    $0.service.lot(lotID)?.bidCount == history.count
                        && $0.service.lot(lotID)?.currentBidCents == history.last?.amountCents
                }
            }
        }
    }

    @Test("Closing and relisting: every node tries, one wins, every node shows it")
    func closingAcrossNodes() async throws {
        let redis = try RedisServer.start()
        defer { redis.stop() }
        let clock = ManualAuctionClock()
        let lots = [AuctionFixtures.lot(1, startingCents: 10_000, closesAt: .seconds(60))]
        let nodes = try [
            Node(redis, lots: lots, clock: clock, relistAfter: .seconds(30)),
            Node(redis, lots: lots, clock: clock, relistAfter: .seconds(30)),
        ]
        try await until("both nodes subscribed") { nodes.allSatisfy(\.pubSub.isLive) }
        _ = try nodes[1].service.placeBid(lotID: "lot-1", amountCents: 10_000, bidder: "ada").get()
        clock.advance(by: .seconds(61))
        try await until("both nodes to show the lot closed") {
            nodes.allSatisfy { $0.service.lot("lot-1")?.isClosed == true }
        }
        #expect(
            nodes[0].service.placeBid(lotID: "lot-1", amountCents: 99_000, bidder: "grace")
                == .failure(.lotClosed(id: "lot-1")))
        clock.advance(by: .seconds(31))
        try await until("both nodes to show it listed again") {
            nodes.allSatisfy { $0.service.lot("lot-1").map { !$0.isClosed && $0.bidCount == 0 } == true }
        }
        let raw = try RedisConnection(to: redis.address, timeout: .seconds(1))
        #expect(
            try raw.command("HGET", "footlight-demo:auction:lot:lot-1", "round") == .string(Array("2".utf8)),
            "listed again once, though both nodes tried")
        _ = try nodes[0].service.placeBid(lotID: "lot-1", amountCents: 10_000, bidder: "grace").get()
        try await until("node B to show the new round's bid") {
            nodes[1].service.lot("lot-1")?.highestBidder == "grace"
        }
    }

    @Test("Redis restarted (append-only): no accepted bid is lost, and the nodes go on bidding")
    func redisRestart() async throws {
        let redis = try RedisServer.start(appendOnly: true)
        defer { redis.stop() }
        let (a, b) = try (Node(redis, lots: Self.lots), Node(redis, lots: Self.lots))
        try await until("both nodes subscribed") { a.pubSub.isLive && b.pubSub.isLive }
        for _ in 0..<10 {
            let minimum = a.service.lot("lot-1")?.minimumNextBidCents ?? 0
            _ = try a.service.placeBid(lotID: "lot-1", amountCents: minimum, bidder: "ada").get()
        }
        redis.kill()
        #expect(
            a.service.placeBid(lotID: "lot-1", amountCents: 1_000_000, bidder: "ada") == .failure(.notRecorded),
            "while Redis is away a bid is refused, never taken as accepted")
        try redis.restart()
        #expect(a.service.bids(onLot: "lot-1").count == 10)
        // Back, node B reads the lots again (it may have missed messages): all ten bids.
        try await until("node B to show every bid", timeout: .seconds(15)) { b.service.lot("lot-1")?.bidCount == 10 }
        let minimum = try #require(b.service.lot("lot-1")?.minimumNextBidCents)
        _ = try b.service.placeBid(lotID: "lot-1", amountCents: minimum, bidder: "grace").get()
        try await until("node A to show it", timeout: .seconds(15)) { a.service.lot("lot-1")?.bidCount == 11 }
    }

    private func until(_ what: String, timeout: Duration = .seconds(10), _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out waiting for \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

extension Duration {
    fileprivate var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// A ledger whose first closing and first relisting fail, as a Redis that is away for a
/// moment would.
final class FailingLedger: AuctionLedger {
    private let ledger = SQLiteAuctionLedger(database: KioskDatabase())
    private let failed = Locked<Set<String>>([])

    var location: String { "a failing ledger" }

    private func failOnce(_ what: String) throws(StoreError) {
        if failed.withLock({ $0.insert(what).inserted }) { throw StoreError("\(what) failed on purpose") }
    }

    func open(_ initial: [(id: String, record: LotRecord)]) throws(StoreError) -> [String: LotRecord] {
        try ledger.open(initial)
    }
    func records(_ ids: [String]) throws(StoreError) -> [String: LotRecord] { try ledger.records(ids) }
    func placeBid(
        on lotID: String, amountCents: Int, bidder: String, startingPriceCents: Int, now: @Sendable () -> Double
    ) -> Result<(bid: StoredBid, record: LotRecord), BidError> {
        ledger.placeBid(
            on: lotID, amountCents: amountCents, bidder: bidder, startingPriceCents: startingPriceCents, now: now)
    }
    func close(_ lotID: String, round: Int, now: Double) throws(StoreError) -> (record: LotRecord, changed: Bool)? {
        try failOnce("closing")
        return try ledger.close(lotID, round: round, now: now)
    }
    func relist(_ lotID: String, round: Int, closesAt: Double) throws(StoreError) -> (
        record: LotRecord, changed: Bool
    )? {
        try failOnce("relisting")
        return try ledger.relist(lotID, round: round, closesAt: closesAt)
    }
    func bids(onLot lotID: String, round: Int) throws(StoreError) -> [StoredBid] {
        try ledger.bids(onLot: lotID, round: round)
    }
    func bids(by bidder: String) throws(StoreError) -> [StoredBid] { try ledger.bids(by: bidder) }
    func bids(onLot lotID: String, round: Int, from cursor: Int, limit: Int) throws(StoreError) -> (
        bids: [StoredBid], next: Int?
    ) {
        try ledger.bids(onLot: lotID, round: round, from: cursor, limit: limit)
    }
}

@Suite struct LedgerFailureTests {
    @Test("A closing and a relisting the ledger could not record are tried again a second later")
    func retried() throws {
        let clock = ManualAuctionClock()
        let service = try AuctionService(
            lots: [AuctionFixtures.lot(1, closesAt: .seconds(60))], clock: clock, ledger: FailingLedger(),
            relistAfter: .seconds(30))
        clock.advance(by: .milliseconds(60_500))
        #expect(service.lot("lot-1")?.isClosed == false, "the closing failed")
        clock.advance(by: AuctionService.retryAfter)
        #expect(service.lot("lot-1")?.isClosed == true, "and was tried again")
        clock.advance(by: .seconds(30))
        #expect(service.lot("lot-1")?.isClosed == true, "the relisting failed")
        clock.advance(by: AuctionService.retryAfter)
        #expect(service.lot("lot-1")?.isClosed == false, "and was tried again")
    }
}
