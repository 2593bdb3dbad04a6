import Dispatch
import Footlight
import Testing

@testable import FootlightServer

/// The two signals a shutdown waits on: the drain condition (the last socket closed) and
/// the latch ``Server/run()`` waits behind.
@Suite struct ShutdownSignalsTests {
    @Test("A drain condition wakes its waiter when notified, long before its timeout")
    func drainWakes() {
        let drained = Locked(false)
        let condition = DrainCondition()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
            drained.withLock { $0 = true }
            condition.notify()
        }
        let start = ContinuousClock.now
        #expect(condition.wait(timeout: .seconds(30)) { drained.withLock { $0 } })
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test("A drain condition gives up at its timeout when nothing drains")
    func drainTimesOut() {
        let condition = DrainCondition()
        let start = ContinuousClock.now
        #expect(!condition.wait(timeout: .milliseconds(100)) { false })
        #expect(ContinuousClock.now - start >= .milliseconds(100))
    }

    @Test("A latch lets the tasks waiting go on when it opens, and later ones through at once")
    func latch() async {
        let latch = Latch()
        let passed = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    await latch.wait()
                    passed.withLock { $0 += 1 }
                }
            }
            #expect(passed.withLock { $0 } == 0)
            latch.open()
            await group.waitForAll()
        }
        #expect(passed.withLock { $0 } == 3)
        await latch.wait()
        latch.open()
    }
}
