import DemoApp
import Footlight
import Testing

extension AuctionTests {
    @Suite struct SimulatedBidderTests {
        func run(seed: UInt64, intervals: Int) -> [Bid] {
            let clock = ManualAuctionClock()
            let service = AuctionService(lots: AuctionCatalogue.lots(), clock: clock)
            let bidder = SimulatedBidder(service: service, interval: .seconds(5), random: SeededRandom(seed: seed))
            bidder.start()
            clock.advance(by: .seconds(5 * intervals))
            bidder.stop()
            return service.lots.flatMap { service.bids(onLot: $0.id) }.sorted { $0.sequence < $1.sequence }
        }

        @Test("Bids once per interval on open lots, for one of its paddles, at least the minimum")
        func bidsOnATimer() throws {
            let clock = ManualAuctionClock()
            let service = AuctionService(lots: AuctionCatalogue.lots(), clock: clock)
            let bidder = SimulatedBidder(service: service, interval: .seconds(5), random: SeededRandom(seed: 1))
            bidder.start()
            bidder.start()  // a second start changes nothing
            clock.advance(by: .seconds(4))
            #expect(service.lots.allSatisfy { $0.bidCount == 0 })
            clock.advance(by: .seconds(1))
            let first = service.lots.flatMap { service.bids(onLot: $0.id) }
            #expect(first.count == 1)
            let bid = try #require(first.first)
            #expect(bid.placedAt == .seconds(5))
            #expect(SimulatedBidder<SeededRandom>.paddles.contains(bid.bidder))
            let lot = try #require(AuctionCatalogue.lots().first { $0.id == bid.lotID })
            #expect(bid.amountCents >= lot.startingPriceCents)
            #expect(bid.amountCents <= lot.startingPriceCents + 2 * Lot.minimumIncrement(above: lot.startingPriceCents))
            clock.advance(by: .seconds(20))
            #expect(service.lots.reduce(0) { $0 + $1.bidCount } == 5)
            bidder.stop()
            clock.advance(by: .seconds(60))
            #expect(service.lots.reduce(0) { $0 + $1.bidCount } == 5)
            #expect(clock.pendingCount == 12)  // only the lots' closing timers remain
        }

        @Test("The same seed replays the same bids; another seed differs")
        func deterministic() {
            let first = run(seed: 42, intervals: 30)
            #expect(first.count == 30)
            #expect(first == run(seed: 42, intervals: 30))
            #expect(first != run(seed: 43, intervals: 30))
        }

        @Test("With every lot closed it places nothing")
        func nothingOpen() {
            let clock = ManualAuctionClock()
            let service = AuctionService(lots: [AuctionFixtures.lot(1, closesAt: .seconds(1))], clock: clock)
            let bidder = SimulatedBidder(service: service, random: SeededRandom(seed: 3))
            clock.advance(by: .seconds(2))
            #expect(bidder.placeRandomBid() == nil)
            #expect(service.bids(onLot: "lot-1").isEmpty)
        }
    }
}
