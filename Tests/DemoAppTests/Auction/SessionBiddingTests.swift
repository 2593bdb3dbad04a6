import DemoApp
import Footlight
import Testing

extension AuctionTests {
    @Suite struct SessionBiddingTests {
        @Test("Places the bid on the service after the latency, on the session's clock; a refusal is a BidError")
        func placesAfterLatency() throws {
            let clock = ManualAuctionClock()
            let service = AuctionService(lots: AuctionCatalogue.lots(), clock: clock)
            let bidding = SessionBidding(service: service, clock: clock, latency: .milliseconds(300))
            var bids: [Bid] = []
            var failures: [BidError?] = []
            var finished = 0
            let request = BidRequest(lotID: "lot-2", amountCents: 45_000, bidder: "ada")
            let subscriptions = [request, request].map { request in
                bidding.placeBid(request).sink(
                    receiveCompletion: { completion in
                        switch completion {
                        case .finished: finished += 1
                        case .failure(let error): failures.append(error as? BidError)
                        }
                    },
                    receiveValue: { bids.append($0) })
            }
            clock.advance(by: .milliseconds(299))
            #expect(service.lot("lot-2")?.bidCount == 0)
            #expect(bids.isEmpty)
            clock.advance(by: .milliseconds(1))
            #expect(bids.map(\.amountCents) == [45_000])
            #expect(bids.first?.placedAt == .milliseconds(300))
            #expect(finished == 1)
            #expect(failures == [.tooLow(minimumCents: 47_500)])
            #expect(service.lot("lot-2")?.highestBidder == "ada")
            for subscription in subscriptions { subscription.cancel() }
        }
    }
}
