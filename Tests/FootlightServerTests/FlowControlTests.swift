import Footlight
import Testing

@testable import FootlightServer

/// A connection's flow control as one value: what each step says to do, with no socket.
@Suite struct FlowControlTests {
    @Test("The loop stops reading once `limit` messages wait for the session, and reads again at half")
    func readingPausedAndResumed() {
        var flow = FlowControl()
        var pauses: [Bool] = []
        for _ in 0..<5 { pauses.append(flow.handOver(limit: 4).pause) }
        #expect(pauses == [false, false, false, true, false], "paused once, at the fourth")
        #expect(flow.queuedMessages == 5)
        var resumes: [Bool] = []
        for _ in 0..<5 { resumes.append(flow.handled(limit: 4)) }
        #expect(resumes == [false, false, true, false, false], "read again once, with 2 waiting")
        #expect(!flow.readingPaused)
    }

    @Test("A drain signal asked for is given once, when the queue empties, or at once when it is empty")
    func drainSignal() {
        let calls = Locked(0)
        var flow = FlowControl()
        flow.drainHandler = { calls.withLock { $0 += 1 } }
        #expect(flow.queue(bytes: 100) == 100)
        #expect(flow.requestDrainSignal() == nil, "bytes wait")
        flow.dequeue(bytes: 100)
        flow.takeDrainSignal()?()
        flow.takeDrainSignal()?()
        #expect(calls.withLock { $0 } == 1, "once per request")
        flow.requestDrainSignal()?()
        #expect(calls.withLock { $0 } == 2, "nothing waits: at once")
        #expect(flow.takeDrainSignal() == nil)
    }
}
