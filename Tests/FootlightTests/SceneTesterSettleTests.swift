import Dispatch
import Footlight
import FootlightJSON
import FootlightTesting
import Testing

/// Settling by a condition: until the session is quiet, or a change has come.
@Suite struct SceneTesterSettleTests {
    @Test("Work a service hands the session 50 ms later, from a queue of its own, is waited for")
    func waitsForWorkFromAnotherThread() {
        let weather = Weather()
        let tester = SceneTester(TallyScene(weather: weather))
        weather.publish("Sunny", after: .milliseconds(50))
        tester.settle(waitingForChange: true)
        tester.expect("tally", ["forecast": "Sunny"])
        // Without waiting for a change, settling returns as soon as the session is quiet.
        weather.publish("Rain", after: .milliseconds(500))
        tester.settle()
        #expect(tester.document("tally")?["forecast"] == "Sunny")
        tester.settle(waitingForChange: true)
        tester.expect("tally", ["forecast": "Rain"])
        tester.finish()
    }

    @Test("Work the session delays on its executor is waited for: the step settles after it")
    func waitsForDelayedWork() {
        let tester = SceneTester(TallyScene())
        let start = ContinuousClock.now
        tester.send("later", to: "tally")
        #expect(ContinuousClock.now - start >= .milliseconds(50))
        tester.expect("tally", ["label": "later"])
        tester.finish()
    }

    @Test("A session that never becomes quiet fails with what was outstanding, at the deadline")
    func neverSettles() {
        let spinning = Locked(true)
        let tester = SceneTester(TallyScene(spinning: spinning))
        tester.settleTimeout = .milliseconds(200)
        let start = ContinuousClock.now
        let messages = failures { tester.send("spin", to: "tally") }
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("settle: the session did not become quiet within 0.2 seconds") == true)
        #expect(messages.first?.contains("a Director or service that keeps scheduling work?") == true)
        spinning.withLock { $0 = false }
        tester.settle()
        tester.finish()
    }

    @Test("Waiting for a change that never comes fails, naming the wait")
    func changeNeverComes() {
        let tester = SceneTester(TallyScene())
        let messages = failures { tester.settle(waitingForChange: true, timeout: .milliseconds(50)) }
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("settle: nothing reached the page within 0.05 seconds") == true)
        tester.finish()
    }
}
