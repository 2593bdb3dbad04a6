import DemoApp
import Footlight
import Testing

extension AuctionTests {
    @Suite struct ClockTicksTests {
        @Test("Emits the time at subscription and at every interval, and stops when cancelled")
        func ticks() {
            let clock = ManualAuctionClock(now: .seconds(10))
            let ticks = Recording(ClockTicks.every(.seconds(1), on: clock, now: { clock.now }))
            #expect(ticks.values == [.seconds(10)])
            clock.advance(by: .milliseconds(2_500))
            #expect(ticks.values == [.seconds(10), .seconds(11), .seconds(12)])
            ticks.cancel()
            #expect(clock.pendingCount == 0)
            clock.advance(by: .seconds(5))
            #expect(ticks.values.count == 3)
        }
    }
}
