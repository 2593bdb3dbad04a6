import Dispatch
import Footlight
import Testing

@testable import FootlightServer

/// The watchdog's hand-off of a loop whose app code overran its budget happens once per
/// turn. A second hand-off while the first new thread has not started yet (a loaded
/// machine) would leave two threads serving one context, the second's libwebsockets
/// calls off its loop (a CI run trapped on `preconditionInLoop` so).
@Suite(.timeLimit(.minutes(1)))
struct LoopHandOffTests {
    @Test("Only app code on a loop not handed off already may be handed off")
    func states() {
        let turn: UInt64 = 7 << 2
        #expect(ServiceLoop.mayHandOff(turn | 1))
        #expect(!ServiceLoop.mayHandOff(turn | 3), "handed off, its new thread not started")
        #expect(!ServiceLoop.mayHandOff(turn | 2))
        #expect(!ServiceLoop.mayHandOff(turn))
    }

    @Test("A stuck turn is handed off once, however often the watchdog sees it before the new thread runs")
    func once() throws {
        let thread = try WebSocketClientThread(name: "hand-off-probe")
        let loop = thread.serviceLoop
        defer { thread.stop() }
        let inTurn = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        let kept = Locked<Bool?>(nil)
        #expect(
            loop.execute {
                let turn = loop.beginAppCode()
                inTurn.signal()
                release.wait()  // app code that blocks
                kept.withLock { $0 = loop.endAppCode(turn) }
                ended.signal()
            })
        #expect(inTurn.wait(timeout: .now() + 10) == .success)
        let seen = loop.appState.load(ordering: .sequentiallyConsistent)
        #expect(loop.handOff(expected: seen))
        // What the watchdog reads next, had the new thread not run yet.
        #expect(!loop.handOff(expected: seen | 2))
        #expect(!loop.handOff(expected: seen))
        #expect(loop.handOffs.load(ordering: .relaxed) == 1)
        release.signal()
        #expect(ended.wait(timeout: .now() + 10) == .success)
        #expect(kept.withLock { $0 } == false, "the stuck thread learns it no longer owns the loop")
        // The loop goes on on its new thread.
        let served = DispatchSemaphore(value: 0)
        #expect(
            loop.execute {
                loop.preconditionInLoop()
                served.signal()
            })
        #expect(served.wait(timeout: .now() + 10) == .success)
    }
}
