import Footlight
import FootlightJSON
import Testing

@testable import FootlightServer

@Suite("SessionState: the stages a session shows are bounded")
struct SessionStateStageLimitTests {
    /// The host of row `row`'s card.
    func card(_ row: Int) -> ComponentHost {
        ComponentHost(name: "card", row: "r\(row)")
    }

    @Test("A component past maximumStages is not shown and is logged once per thousand; one removed makes room")
    func componentsPastTheLimit() {
        var limits = SessionLimits()
        limits.maximumStages = 3
        let root = Stage(name: "list")
        let machine = SessionMachine(limits: limits) { machine, _ in _ = machine.present(root) }
        machine.attach()
        _ = machine.take()

        var shown: [String] = []
        for row in 0..<2 {
            let (id, actions) = machine.state.present(Stage(name: "card"), in: "list", at: card(row))
            machine.perform(actions)
            shown += id.map { [$0] } ?? []
        }
        #expect(shown.count == 2 && machine.state.stages.count == 3)
        machine.endTurn()
        #expect(machine.takeTypes() == ["mount", "mount"])

        // Past the limit: no id, no mount, and one log line for the first thousand refused.
        var refused = 0
        for row in 2..<1_003 {
            let (id, actions) = machine.state.present(Stage(name: "card"), in: "list", at: card(row))
            machine.perform(actions)
            if id == nil { refused += 1 }
        }
        #expect(refused == 1_001 && machine.state.stages.count == 3)
        machine.endTurn()
        #expect(machine.take().isEmpty, "nothing is mounted past the limit")
        #expect(machine.logs.count == 2, "the first refusal and the 1,001st are logged, not each one")
        let first = machine.logs.first ?? ""
        #expect(first.contains("component \"card\" at \"card\" of row \"r2\" of stage \"list\" not shown"))
        #expect(first.contains("SessionLimits.maximumStages"))

        // A component removed makes room for the next one.
        let shownCard = machine.state.stages.entries.first { $0.isComponent }!.stage
        machine.perform(machine.state.removeComponents([shownCard]))
        let (id, actions) = machine.state.present(Stage(name: "card"), in: "list", at: card(9))
        machine.perform(actions)
        #expect(id != nil)
        machine.endTurn()
        #expect(machine.takeTypes() == ["unmount", "mount"])
    }
}
