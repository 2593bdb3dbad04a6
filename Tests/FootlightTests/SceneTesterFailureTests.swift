import Dispatch
import Footlight
import FootlightJSON
import FootlightTesting
import Testing

/// How SceneTester fails: a structural diff of the expected against the actual value.
@Suite struct SceneTesterDiffTests {
    @Test("A slot that differs fails with a diff of the expected against the actual slots")
    func slotDiff() {
        let tester = SceneTester(TallyScene())
        tester.send("add", to: "tally")
        let messages = failures { tester.expect("tally", ["count": 2]) }
        #expect(
            messages == [
                """
                tally: the slots differ (- expected, + actual):

                    [
                  -   "count": 2
                  +   "count": 1
                    ]
                """
            ])
        tester.finish()
    }

    @Test("A whole document asserted: the slots that differ, the others folded")
    func documentDiff() {
        let tester = SceneTester(TallyScene())
        tester.send("rename", to: "tally", value: "Ada")
        let messages = failures { tester.expect("tally", document: ["count": 0, "label": "Bob", "forecast": "…"]) }
        #expect(messages.count == 1)
        let message = messages.first ?? ""
        #expect(message.hasPrefix("tally: the document differs (- expected, + actual):"))
        #expect(message.contains(#"-   "label": "Bob""#))
        #expect(message.contains(#"+   "label": "Ada""#))
        #expect(message.contains("… (2 unchanged)"))
        // The document counts as asserted, wrong or right: nothing else fails.
        tester.expect("tally", document: ["count": 0, "label": "Ada", "forecast": "…"])
        tester.finish()
    }

    @Test("Context commands that differ: a diff of the two lists, command by command")
    func commandsDiff() {
        let tester = SceneTester(TallyScene())
        tester.send("visit", to: "tally")
        let messages = failures { tester.expectCommands([.open(url: "https://example.org/")]) }
        #expect(
            messages == [
                """
                context commands differ (- expected, + actual):

                    [
                  -   [0]: .open(url: "https://example.org/")
                  +   [0]: .open(url: "https://example.com/")
                    ]
                """
            ])
        tester.finish()
    }

    @Test("A patch that differs: a diff of the operations, unchanged members folded")
    func patchDiff() {
        let tester = SceneTester(TallyScene())
        tester.send("add", to: "tally")
        tester.expect("tally", ["count": 1])
        let messages = failures { tester.expectPatch("tally", [["op": "replace", "path": "/count", "value": 2]]) }
        #expect(messages.count == 1)
        let message = messages.first ?? ""
        #expect(message.hasPrefix("patch of tally differs (- expected, + actual):"))
        #expect(message.contains(#"-     "value": 2"#))
        #expect(message.contains(#"+     "value": 1"#))
        #expect(message.contains("… (2 unchanged)"))
        tester.finish()
    }

    @Test("An unasserted change fails the next step with a diff of what was last asserted against now")
    func unassertedDiff() {
        let tester = SceneTester(TallyScene())
        tester.send("both", to: "tally")
        let messages = failures { tester.send("add", to: "tally") }
        #expect(
            messages == [
                """
                before sending "add": unasserted change of tally (- last asserted, + now):

                    [
                  -   "count": 0,
                  +   "count": 1,
                  -   "label": "none"
                  +   "label": "both"
                      … (1 unchanged)
                    ]
                """
            ])
        // Reported once: the step's own change is what is left to assert.
        tester.expect("tally", ["count": 2])
        tester.finish()
    }

    @Test("Unasserted commands fail with their dump")
    func unassertedCommands() {
        let tester = SceneTester(TallyScene())
        tester.send("visit", to: "tally")
        let messages = failures { tester.finish() }
        #expect(
            messages == [
                """
                before finishing: unasserted context commands:
                [
                  [0]: .open(url: "https://example.com/")
                ]
                """
            ])
    }
}

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

/// The non-exhaustive mode: only what is asserted is checked.
@Suite struct SceneTesterExhaustivityTests {
    @Test("An unasserted change fails an exhaustive tester")
    func exhaustiveFails() {
        let tester = SceneTester(TallyScene())
        tester.send("both", to: "tally")
        tester.expect("tally", ["count": 1])
        let messages = failures { tester.finish() }
        #expect(messages.count == 1)
        #expect(messages.first?.contains(#"+   "label": "both""#) == true)
    }

    @Test("The same passes a non-exhaustive tester, which checks what is asserted")
    func nonExhaustivePasses() {
        let tester = SceneTester(TallyScene())
        tester.exhaustivity = .off
        tester.send("both", to: "tally")
        tester.expect("tally", ["count": 1])
        tester.send("add", to: "tally")
        tester.send("visit", to: "tally")
        tester.send("add", to: "tally")
        // A slot asserted after steps that left it unasserted: its value is checked.
        tester.expect("tally", ["label": "both"])
        // Asserted wrong, it still fails, with the diff.
        let messages = failures { tester.expect("tally", ["count": 2]) }
        #expect(messages.first?.contains(#"+   "count": 3"#) == true)
        tester.finish()
    }

    @Test("Non-exhaustive: the commands expected are found among those issued; one missing fails")
    func nonExhaustiveCommands() {
        let tester = SceneTester(TallyScene())
        tester.exhaustivity = .off
        tester.send("about", to: "tally")
        tester.expectCommands([.open(url: "https://example.com/about")])
        tester.send("about", to: "tally")
        let messages = failures { tester.expectCommands([.open(url: "https://example.org/")]) }
        #expect(messages.first?.hasPrefix("context commands differ") == true)
        tester.finish()
    }

    @Test("Non-exhaustive: what was skipped is kept; with skips shown, each is a known issue and the test passes")
    func skipsShown() {
        let tester = SceneTester(TallyScene())
        tester.exhaustivity = .off(showSkippedAssertions: true)
        tester.send("both", to: "tally")
        tester.send("visit", to: "tally")
        tester.finish()
        #expect(tester.skipped.count == 2)
        #expect(tester.skipped.first?.hasPrefix("before sending \"visit\": unasserted change of tally") == true)
        #expect(tester.skipped.last?.hasPrefix("before finishing: unasserted context commands:") == true)
    }

    @Test("Non-exhaustive: timers are allowed unless asked; protocol checks stay")
    func nonExhaustiveTimers() {
        let tester = SceneTester(TallyScene())
        tester.exhaustivity = .off
        tester.send("remind", to: "tally")
        tester.finish()
        let messages = failures { tester.finish(allowingTimers: false) }
        #expect(messages == ["1 scheduled action(s) never ran; advance the clock"])
    }
}

/// The comments of the issues `body` records, each expected (a known issue).
private func failures(_ body: () -> Void) -> [String] {
    let recorded = Locked<[String]>([])
    withKnownIssue {
        body()
    } matching: { issue in
        recorded.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
        return true
    }
    return recorded.withLock { $0 }
}

/// A count, a label and a forecast (from `weather`), with events for the first two; one
/// opens a URL, one the about page (two commands), one delays work on the session's
/// executor, one schedules a reminder on the test clock, and one keeps the executor busy
/// for as long as `spinning`.
private struct TallyScene: Scene {
    var spinning = Locked(false)
    var weather: Weather?

    func makeStage(context: Context) -> Stage {
        let stage = Stage(name: "tally")
        let executor = context.environment.executor
        let add = PassthroughSubject<Void, Never>()
        let rename = PassthroughSubject<String, Never>()
        let forecast = PassthroughSubject<String, Never>()
        stage.bind(add.scan(0) { count, _ in count + 1 }.prepend(0), to: "count")
        stage.bind(rename.prepend("none"), to: "label")
        stage.bind(forecast.prepend("…"), to: "forecast")
        stage.on("add", send: add)
        stage.on("rename", send: rename)
        if let weather {
            nonisolated(unsafe) let forecast = forecast  // used only on the session's executor
            stage.keep(weather.subscribe(on: executor) { forecast.send($0) })
        }
        // Used only on the session's executor.
        nonisolated(unsafe) let renameLater = rename
        let spinning = spinning
        stage.on(
            "both",
            perform: { (_: JSON) in
                add.send()
                rename.send("both")
            })
        stage.on("visit", perform: { (_: JSON) in context.open(url: "https://example.com/") })
        stage.on(
            "about",
            perform: { (_: JSON) in
                context.open(url: "https://example.com/about")
                context.open(url: "https://example.com/")
            })
        stage.on(
            "later",
            perform: { (_: JSON) in
                _ = executor.execute(after: .milliseconds(50)) { renameLater.send("later") }
            })
        stage.on(
            "remind",
            perform: { (_: JSON) in
                _ = context.environment.clock.schedule(after: .seconds(60)) {}
            })
        stage.on(
            "spin",
            perform: { (_: JSON) in
                @Sendable func spin() {
                    if spinning.withLock({ $0 }) { executor.execute(spin) }
                }
                spin()
            })
        return stage
    }
}

/// A shared service: it publishes from a queue of its own, to each subscriber on its
/// session's executor, as a service shared by sessions does.
private final class Weather: Sendable {
    private let subscribers = Locked<[Int: (any SessionExecutor, @Sendable (String) -> Void)]>([:])
    private let queue = DispatchQueue(label: "weather")

    func subscribe(on executor: any SessionExecutor, _ receive: @escaping @Sendable (String) -> Void)
        -> AnyCancellable
    {
        let id = subscribers.withLock { subscribers in
            let id = subscribers.count
            subscribers[id] = (executor, receive)
            return id
        }
        return AnyCancellable { [subscribers] in subscribers.withLock { _ = $0.removeValue(forKey: id) } }
    }

    /// Publishes `forecast` after `delay`, from the service's queue.
    func publish(_ forecast: String, after delay: DispatchTimeInterval) {
        queue.asyncAfter(deadline: .now() + delay) { [subscribers] in
            for (executor, receive) in subscribers.withLock({ Array($0.values) }) {
                executor.execute { receive(forecast) }
            }
        }
    }
}
