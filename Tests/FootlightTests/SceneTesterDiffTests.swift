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
