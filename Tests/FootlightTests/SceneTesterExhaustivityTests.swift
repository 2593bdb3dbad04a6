import Footlight
import FootlightJSON
import FootlightTesting
import Testing

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
