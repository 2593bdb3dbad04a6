import FootlightTesting
import Testing

@testable import DemoApp

/// A lot's bids read a page at a time (the CSV export), from SQLite and from Redis.
@Suite(.timeLimit(.minutes(1)))
struct BidPagesTests {
    private static let lots = [
        AuctionFixtures.lot(1, startingCents: 10_000), AuctionFixtures.lot(2, startingCents: 10_000),
    ]

    /// Places 6 bids on lot-1 and 3 on lot-2, interleaved, then reads lot-1's in pages of 3.
    private func pages(on ledger: any AuctionLedger) throws -> (pages: [[Int]], all: [Int]) {
        let service = try AuctionService(lots: Self.lots, clock: ManualAuctionClock(), ledger: ledger)
        for index in 0..<9 {
            let id = index % 3 == 2 ? "lot-2" : "lot-1"
            let amount = try #require(service.lot(id)).minimumNextBidCents
            _ = try service.placeBid(lotID: id, amountCents: amount, bidder: "ada@example.com").get()
        }
        var pages = try #require(service.bidPages(onLot: "lot-1", pageSize: 3))
        var seen: [[Int]] = []
        while let page = try pages.next() { seen.append(page.map(\.sequence)) }
        #expect(service.bidPages(onLot: "lot-9", pageSize: 3) == nil)
        return (seen, service.bids(onLot: "lot-1").map(\.sequence))
    }

    @Test("SQLite: pages of at most the size, in order, the lot's bids only, none empty")
    func sqlite() throws {
        let (pages, all) = try pages(on: SQLiteAuctionLedger(database: KioskDatabase()))
        #expect(pages.map(\.count) == [3, 3])
        #expect(pages.flatMap { $0 } == all && all.count == 6)
    }

    @Test("Redis: the same pages from the lot's list")
    func redis() throws {
        let redis = try RedisServer.start()
        defer { redis.stop() }
        let (pages, all) = try pages(on: RedisAuctionLedger(address: redis.address))
        #expect(pages.map(\.count) == [3, 3])
        #expect(pages.flatMap { $0 } == all && all.count == 6)
    }
}
