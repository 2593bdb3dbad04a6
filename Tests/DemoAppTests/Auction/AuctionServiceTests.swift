import DemoApp
import Dispatch
import Footlight
import Testing

extension AuctionTests {
    @Suite struct AuctionServiceTests {
        let clock = ManualAuctionClock()

        func makeService(_ lots: [Lot] = AuctionCatalogue.lots()) -> AuctionService {
            AuctionService(lots: lots, clock: clock)
        }

        @Test("The catalogue has twelve lots with unique ids, in order, all open, closing at staggered times")
        func catalogue() {
            let lots = AuctionCatalogue.lots()
            #expect(lots.count == 12)
            #expect(Set(lots.map(\.id)).count == 12)
            #expect(lots.map(\.number) == Array(1...12))
            #expect(lots.allSatisfy { $0.isOpen(at: .zero) && $0.bidCount == 0 && $0.highestBidder == nil })
            #expect(lots.map(\.closesAt) == lots.map(\.closesAt).sorted())
            #expect(AuctionCatalogue.lots(openedAt: .seconds(10)).first?.closesAt == .seconds(250))
        }

        @Test("An accepted bid raises the current bid, counts it, records the bidder and is stamped in order")
        func acceptedBid() throws {
            let service = makeService()
            clock.advance(by: .seconds(5))
            let first = try service.placeBid(lotID: "lot-2", amountCents: 45_000, bidder: "ada").get()
            #expect(
                first == Bid(lotID: "lot-2", bidder: "ada", amountCents: 45_000, placedAt: .seconds(5), sequence: 1))
            let lot = try #require(service.lot("lot-2"))
            #expect(lot.currentBidCents == 45_000)
            #expect(lot.bidCount == 1)
            #expect(lot.highestBidder == "ada")
            #expect(lot.minimumNextBidCents == 47_500)
            let second = try service.placeBid(lotID: "lot-2", amountCents: 50_000, bidder: "grace").get()
            #expect(second.sequence == 2)
            #expect(service.bids(onLot: "lot-2").map(\.bidder) == ["ada", "grace"])
            #expect(service.bids(by: "ada") == [first])
            #expect(service.lot("lot-2")?.highestBidder == "grace")
            #expect(service.lots.filter { $0.id != "lot-2" }.allSatisfy { $0.bidCount == 0 })
        }

        @Test("Refused bids: unknown lot, below the start, not above the current bid by the increment, no bidder")
        func refusedBids() throws {
            let service = makeService()
            #expect(
                service.placeBid(lotID: "lot-99", amountCents: 1_000_000, bidder: "ada")
                    == .failure(.unknownLot(id: "lot-99")))
            #expect(
                service.placeBid(lotID: "lot-2", amountCents: 44_999, bidder: "ada")
                    == .failure(.tooLow(minimumCents: 45_000)))
            _ = try service.placeBid(lotID: "lot-2", amountCents: 45_000, bidder: "ada").get()
            #expect(
                service.placeBid(lotID: "lot-2", amountCents: 45_000, bidder: "bo")
                    == .failure(.tooLow(minimumCents: 47_500)))
            #expect(
                service.placeBid(lotID: "lot-2", amountCents: 47_499, bidder: "bo")
                    == .failure(.tooLow(minimumCents: 47_500)))
            #expect(service.placeBid(lotID: "lot-2", amountCents: 47_500, bidder: "") == .failure(.missingBidder))
            #expect((try? service.placeBid(lotID: "lot-2", amountCents: 47_500, bidder: "bo").get())?.sequence == 2)
            #expect(service.lot("lot-2")?.bidCount == 2)
            #expect(BidError.unknownLot(id: "lot-99").description == "no lot has the id \"lot-99\"")
            #expect(BidError.tooLow(minimumCents: 47_500).description == "the bid must be at least 47500 cents")
            #expect(BidError.lotClosed(id: "lot-1").description == "bidding on lot \"lot-1\" has closed")
        }

        @Test("The minimum increment is $25 under $1,000, $100 under $10,000 and $500 above")
        func increments() {
            #expect(Lot.minimumIncrement(above: 99_999) == 2_500)
            #expect(Lot.minimumIncrement(above: 100_000) == 10_000)
            #expect(Lot.minimumIncrement(above: 999_999) == 10_000)
            #expect(Lot.minimumIncrement(above: 1_000_000) == 50_000)
            #expect(AuctionFixtures.lot(1, startingCents: 500, bids: []).minimumNextBidCents == 500)
            #expect(AuctionFixtures.lot(1, bids: [120_000]).minimumNextBidCents == 130_000)
        }

        @Test("A lot closes when the clock reaches its time: subscribers hear it and later bids are refused")
        func closesByClock() throws {
            let service = makeService()
            let queue = NamedQueue("closing")
            let closedIDs = LockedList<[String]>()
            let (_, subscription) = service.subscribe(on: queue.queue) { lots in
                closedIDs.append(lots.filter(\.isClosed).map(\.id))
            }
            clock.advance(by: .seconds(239))
            #expect((try? service.placeBid(lotID: "lot-1", amountCents: 120_000, bidder: "ada").get()) != nil)
            clock.advance(by: .seconds(1))
            queue.flush()
            #expect(closedIDs.values == [[], ["lot-1"]])
            #expect(service.lot("lot-1")?.isClosed == true)
            #expect(
                service.placeBid(lotID: "lot-1", amountCents: 500_000, bidder: "bo")
                    == .failure(.lotClosed(id: "lot-1")))
            #expect(service.lot("lot-1")?.highestBidder == "ada")
            clock.advance(by: .seconds(11 * 60 - 240))
            queue.flush()
            #expect(closedIDs.values.last == ["lot-1", "lot-2"])
            clock.advance(by: .seconds(30 * 3_600))
            #expect(service.lots.allSatisfy { $0.isClosed })
            #expect(clock.pendingCount == 0)
            subscription.cancel()
        }

        @Test("A bid at or after the closing time is refused even before the closing timer has run")
        func closesOnTimeWithoutTimer() {
            let service = makeService([AuctionFixtures.lot(1, closesAt: .zero)])
            let queue = NamedQueue("late")
            let seen = LockedList<Bool>()
            let (current, subscription) = service.subscribe(on: queue.queue) { seen.append($0[0].isClosed) }
            #expect(current.first?.isClosed == false)
            #expect(
                service.placeBid(lotID: "lot-1", amountCents: 10_000, bidder: "ada")
                    == .failure(.lotClosed(id: "lot-1")))
            queue.flush()
            #expect(seen.values == [true])
            clock.advance(by: .zero)  // the timer now finds it closed and publishes nothing more
            queue.flush()
            #expect(seen.values == [true])
            subscription.cancel()
        }

        @Test("Each subscriber gets every change on its own queue, in order; a cancelled one gets no more")
        func deliversOnSubscriberQueues() throws {
            let service = makeService()
            let queues = [NamedQueue("session-a"), NamedQueue("session-b")]
            let deliveries = queues.map { _ in LockedList<(queue: String?, bids: Int)>() }
            var subscriptions: [AuctionSubscription] = []
            for (queue, list) in zip(queues, deliveries) {
                subscriptions.append(
                    service.subscribe(on: queue.queue) { lots in
                        list.append((NamedQueue.current, lots.reduce(0) { $0 + $1.bidCount }))
                    }.subscription)
            }
            #expect(service.subscriberCount == 2)
            _ = try service.placeBid(lotID: "lot-3", amountCents: 380_000, bidder: "ada").get()
            _ = try service.placeBid(lotID: "lot-4", amountCents: 90_000, bidder: "bo").get()
            subscriptions[1].cancel()
            #expect(service.subscriberCount == 1)
            _ = try service.placeBid(lotID: "lot-4", amountCents: 92_500, bidder: "ada").get()
            for queue in queues { queue.flush() }
            #expect(deliveries[0].values.map(\.queue) == ["session-a", "session-a", "session-a"])
            #expect(deliveries[0].values.map(\.bids) == [1, 2, 3])
            #expect(deliveries[1].values.map(\.queue) == ["session-b", "session-b"])
            #expect(deliveries[1].values.map(\.bids) == [1, 2])
            subscriptions[0].cancel()
            #expect(service.subscriberCount == 0)
        }

        @Test("The lots publisher starts with the current lots and unregisters when cancelled")
        func lotsPublisher() throws {
            let service = makeService()
            _ = try service.placeBid(lotID: "lot-5", amountCents: 30_000, bidder: "ada").get()
            let queue = NamedQueue("publisher")
            let counts = LockedList<Int>()
            let subscription = queue.queue.sync {
                service.lotsPublisher(on: queue.queue).sink { lots in counts.append(lots[4].bidCount) }
            }
            #expect(service.subscriberCount == 1)
            _ = try service.placeBid(lotID: "lot-5", amountCents: 32_500, bidder: "bo").get()
            queue.flush()
            #expect(counts.values == [1, 2])
            queue.queue.sync { subscription.cancel() }
            #expect(service.subscriberCount == 0)
        }

        @Test("The lot publisher follows one lot and ignores changes to the others")
        func lotPublisher() throws {
            let service = makeService()
            let queue = NamedQueue("one-lot")
            let bids = LockedList<Int?>()
            let subscription = queue.queue.sync {
                service.lotPublisher(id: "lot-6", on: queue.queue).sink { bids.append($0?.currentBidCents) }
            }
            let missing = LockedList<Bool>()
            let none = queue.queue.sync {
                service.lotPublisher(id: "lot-0", on: queue.queue).sink { missing.append($0 == nil) }
            }
            _ = try service.placeBid(lotID: "lot-7", amountCents: 60_000, bidder: "ada").get()
            _ = try service.placeBid(lotID: "lot-6", amountCents: 25_000, bidder: "ada").get()
            _ = try service.placeBid(lotID: "lot-7", amountCents: 62_500, bidder: "bo").get()
            queue.flush()
            #expect(bids.values == [25_000, 25_000])  // starting price, then the bid (equal amount, new count)
            #expect(missing.values == [true])
            queue.queue.sync {
                subscription.cancel()
                none.cancel()
            }
        }

        @Test("Duplicate lot ids keep the first")
        func duplicateIDs() {
            let service = makeService([AuctionFixtures.lot(1, title: "First"), AuctionFixtures.lot(1, title: "Second")])
            #expect(service.lots.map(\.title) == ["First"])
        }
    }
}
