import DemoApp
import Dispatch
import Footlight
import Testing

extension AuctionTests {
    /// Directors on the live service, built on a session queue as a scene would: when
    /// the stage lets go of their outputs, they let go of the service.
    @Suite struct DirectorLifetimeTests {
        @Test("Cancelling a Director's outputs unregisters it from the service")
        func releasesTheService() {
            let clock = ManualAuctionClock()
            let service = AuctionService(lots: AuctionCatalogue.lots(), clock: clock)
            let session = NamedQueue("session")
            var subscriptions: [AnyCancellable] = []
            session.queue.sync {
                let now = ClockTicks.every(.seconds(1), on: clock, now: { clock.now })
                let listings = ListingsDirector(
                    lots: service.lotsPublisher(on: session.queue), now: now,
                    segment: Empty().eraseToAnyPublisher(), open: Empty().eraseToAnyPublisher())
                let details = LotDetailsDirector(
                    lot: service.lotPublisher(id: "lot-3", on: session.queue), now: now,
                    account: Just("ada").eraseToAnyPublisher(), amount: Empty().eraseToAnyPublisher(),
                    submit: Empty().eraseToAnyPublisher(),
                    bidding: SessionBidding(service: service, clock: clock))
                subscriptions = [
                    listings.rows.sink { _ in }, listings.selectedLot.sink { _ in }, listings.segments.sink { _ in },
                    details.details.sink { _ in }, details.canSubmit.sink { _ in }, details.message.sink { _ in },
                    details.needsSignIn.sink { _ in },
                ]
            }
            #expect(service.subscriberCount >= 2)
            session.queue.sync { subscriptions.removeAll() }
            #expect(service.subscriberCount == 0)
            #expect(clock.pendingCount == 12)  // the tickers stopped; only the lots' closing timers remain
        }
    }
}
