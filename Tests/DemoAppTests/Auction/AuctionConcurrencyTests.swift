import DemoApp
import Dispatch
import Footlight
import Testing

extension AuctionTests {
    /// Many threads bidding at once: no bid is lost or counted twice, and every
    /// subscriber sees the changes in order.
    @Suite struct AuctionConcurrencyTests {
        @Test("Threads racing on one lot: every accepted bid is recorded once, each above the last by the increment")
        func racingOnOneLot() throws {
            let service = AuctionService(
                lots: [AuctionFixtures.lot(1, startingCents: 10_000)], clock: ManualAuctionClock())
            let accepted = LockedList<Bid>()
            let refused = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for _ in 0..<250 {
                    let minimum = service.lot("lot-1")?.minimumNextBidCents ?? 0
                    switch service.placeBid(lotID: "lot-1", amountCents: minimum, bidder: "thread-\(thread)") {
                    case .success(let bid): accepted.append(bid)
                    case .failure: refused.withLock { $0 += 1 }
                    }
                }
            }
            let lot = try #require(service.lot("lot-1"))
            let history = service.bids(onLot: "lot-1")
            #expect(accepted.values.count + refused.withLock { $0 } == 2_000)
            #expect(lot.bidCount == accepted.values.count)
            #expect(history.count == accepted.values.count)
            #expect(Set(history.map(\.sequence)) == Set(1...history.count))
            #expect(history.map(\.sequence) == Array(1...history.count))
            #expect(Set(accepted.values.map(\.sequence)) == Set(history.map(\.sequence)))
            for (earlier, later) in zip(history, history.dropFirst()) {
                #expect(later.amountCents >= earlier.amountCents + Lot.minimumIncrement(above: earlier.amountCents))
            }
            #expect(lot.currentBidCents == history.last?.amountCents)
            #expect(lot.highestBidder == history.last?.bidder)
        }

        @Test("Distinct amounts one increment apart, shuffled over threads: the highest always wins")
        func highestWins() throws {
            let service = AuctionService(
                lots: [AuctionFixtures.lot(1, startingCents: 10_000)], clock: ManualAuctionClock())
            // Under $1,000 the increment is $25: 10_000, 12_500, … 97_500 (36 amounts, one tier).
            var amounts = Array(stride(from: 10_000, through: 97_500, by: 2_500))
            var random = SeededRandom(seed: 7)
            amounts.shuffle(using: &random)
            let shares = (0..<4).map { thread in amounts.enumerated().filter { $0.offset % 4 == thread }.map(\.element)
            }
            let accepted = LockedList<Int>()
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for amount in shares[thread] {
                    if case .success = service.placeBid(lotID: "lot-1", amountCents: amount, bidder: "t\(thread)") {
                        accepted.append(amount)
                    }
                }
            }
            let history = service.bids(onLot: "lot-1").map(\.amountCents)
            #expect(history == history.sorted())
            #expect(Set(history).count == history.count)
            #expect(history.sorted() == accepted.values.sorted())
            #expect(service.lot("lot-1")?.currentBidCents == 97_500)
            #expect(service.lot("lot-1")?.bidCount == history.count)
        }

        @Test("Bids from many threads on many lots reach every subscriber in order, ending at the final state")
        func subscribersSeeOrderedChanges() throws {
            let service = AuctionService(lots: AuctionCatalogue.lots(), clock: ManualAuctionClock())
            let queues = (0..<3).map { NamedQueue("observer-\($0)") }
            let totals = queues.map { _ in LockedList<Int>() }
            let subscriptions = zip(queues, totals).map { queue, list in
                service.subscribe(on: queue.queue) { lots in list.append(lots.reduce(0) { $0 + $1.bidCount }) }
                    .subscription
            }
            let lotIDs = service.lots.map(\.id)
            DispatchQueue.concurrentPerform(iterations: 6) { thread in
                for round in 0..<60 {
                    let id = lotIDs[(thread + round) % lotIDs.count]
                    let minimum = service.lot(id)?.minimumNextBidCents ?? 0
                    _ = service.placeBid(lotID: id, amountCents: minimum, bidder: "t\(thread)")
                }
            }
            for queue in queues { queue.flush() }
            let finalTotal = service.lots.reduce(0) { $0 + $1.bidCount }
            #expect(finalTotal > 0)
            for list in totals {
                #expect(list.values == Array(1...finalTotal))
            }
            for subscription in subscriptions { subscription.cancel() }
        }
    }
}
