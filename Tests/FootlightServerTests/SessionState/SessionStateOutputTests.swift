import Footlight
import FootlightJSON
import FootlightTesting
import Testing

@testable import FootlightServer

@Suite("SessionState: navigation commands and backpressure")
struct SessionStateOutputTests {
    static func joined(limits: SessionLimits = SessionLimits()) -> (SessionMachine, CountingStage) {
        SessionStateEventTests.joined(limits: limits)
    }

    @Test("Push, present and the back button: mounts with placement and URL, unmounts of what is above")
    func navigation() {
        let (machine, _) = Self.joined()
        let pushed = machine.present(Stage(name: "lot"), .push, url: "/lots/7")
        let modal = machine.present(Stage(name: "signin"), .modal)
        machine.endTurn()
        let mounts = machine.take()
        #expect(mounts.map { $0["t"] } == ["mount", "mount"])
        #expect(mounts[0]["place"] == "push" && mounts[0]["url"] == "/lots/7" && mounts[0]["stage"] == .string(pushed))
        #expect(mounts[1]["place"] == "modal" && mounts[1]["stage"] == .string(modal))
        // The back button on the pushed page closes the modal above it, then the page.
        machine.event(1, SessionState.backEvent, stage: pushed)
        let sent = machine.take()
        #expect(sent.filter { $0["t"] == "unmount" }.map { $0["stage"] } == [.string(modal), .string(pushed)])
        #expect(sent.last?["t"] == "ack")
        #expect(machine.state.stages.entries.map(\.id) == ["counter"])
    }

    @Test("Back on a root, or on a stage already gone, changes nothing")
    func backOnRootOrGone() {
        let (machine, _) = Self.joined()
        machine.event(1, SessionState.backEvent, stage: "counter")
        machine.event(2, SessionState.backEvent, stage: "lot-9")
        #expect(machine.take().allSatisfy { $0["t"] == "ack" })
        #expect(machine.state.stages.count == 1)
    }

    @Test("A stage pushed and popped within one turn is never sent")
    func mountAndUnmountCancelOut() {
        let (machine, _) = Self.joined()
        _ = machine.present(Stage(name: "lot"), .push)
        machine.perform(machine.state.removeTop(.push))
        machine.endTurn()
        #expect(machine.take().isEmpty)
    }

    @Test("Replacing the root unmounts everything and mounts the new root")
    func replaceRoot() {
        let (machine, _) = Self.joined()
        _ = machine.present(Stage(name: "lot"), .push)
        machine.endTurn()
        _ = machine.take()
        machine.perform(machine.state.removeAll())
        _ = machine.present(Stage(name: "welcome"))
        machine.endTurn()
        #expect(machine.takeTypes() == ["unmount", "unmount", "mount"])
    }

    @Test("Open-URL commands are sequenced and at most 8 wait for the client")
    func opens() {
        let (machine, _) = Self.joined()
        machine.perform(machine.state.detach(1))
        for index in 1...10 { machine.perform(machine.state.open(url: "https://example.com/\(index)")) }
        #expect(machine.logs.filter { $0.contains("dropped an open-URL") }.count == 2)
        machine.attach(2, resumeAfter: 1)
        let opens = machine.take().filter { $0["t"] == "open" }
        #expect(opens.count == 8)
        #expect(opens.first?["seq"] == 2)
    }

    @Test("Over the high-water mark output waits for the drain, then goes as one coalesced diff")
    func backpressureCoalesces() {
        let (machine, counter) = Self.joined()
        let highWater = SessionLimits().outboxHighWater
        for value in 1...50 {
            counter.set(value)
            machine.endTurn(unsentBytes: highWater + 1)
        }
        #expect(machine.take().isEmpty, "nothing is produced while the socket is behind")
        #expect(machine.awaitingDrain)
        #expect(machine.state.awaitingDrain)
        machine.perform(machine.state.drained())
        machine.endTurn(unsentBytes: 0)
        let sent = machine.take()
        #expect(sent.count == 1)
        #expect(sent[0]["ops"] == [["op": "replace", "path": "/count", "value": 50]])
    }

    @Test("Acknowledgements wait for the drain too, and ride on the coalesced patch")
    func ackDuringBackpressure() {
        let (machine, _) = Self.joined()
        let highWater = SessionLimits().outboxHighWater
        machine.perform(
            machine.state.receive(
                ClientMessage.Event(number: 1, stage: "counter", name: "increment", value: nil), now: machine.now))
        machine.endTurn(unsentBytes: highWater + 1)
        #expect(machine.take().isEmpty)
        machine.perform(machine.state.drained())
        machine.endTurn()
        #expect(machine.take().map { $0["ack"] } == [1])
    }
}

@Suite("SessionState: client commands")
struct SessionStateClientCommandTests {
    @Test("Commands are sequenced after the mount they follow; a removed stage's are dropped; at most 32 batches wait")
    func commands() {
        let machine = SessionMachine { machine, _ in _ = machine.present(Stage(name: "home")) }
        machine.attach()
        _ = machine.take()
        let id = machine.present(Stage(name: "lot"), .push, url: "/lots/1")
        machine.perform(machine.state.run([.setTitle("Lot 1"), .focus("#amount")], in: id))
        machine.endTurn()
        let sent = machine.take()
        #expect(sent.map { $0["t"] } == ["mount", "run"])
        #expect(sent[1]["seq"] == 3 && sent[1]["stage"] == .string(id))
        #expect(sent[1]["do"] == [["do": "title", "text": "Lot 1"], ["do": "focus", "at": "#amount"]])
        #expect(
            sent[1]["do"]?.arrayValue?.compactMap(ClientCommand.init(json:)) == [.setTitle("Lot 1"), .focus("#amount")])

        // Run, then removed in the same turn: the page never hears of either.
        let gone = machine.present(Stage(name: "lot"), .push, url: "/lots/2")
        machine.perform(machine.state.run([.focus("#amount")], in: gone))
        machine.perform(machine.state.removeTop(.push))
        machine.endTurn()
        #expect(machine.take().isEmpty, "a mount never sent is forgotten with its commands")
        #expect(machine.state.run([.focus("#x")], in: gone).isEmpty, "no stage, nothing queued")

        // A page that reads nothing: the oldest batches go first.
        machine.perform(machine.state.detach(1))
        for index in 0..<40 { machine.perform(machine.state.run([.setTitle("\(index)")], in: "home")) }
        #expect(machine.logs.filter { $0.hasPrefix("dropped client commands") }.count == 8)
        machine.attach(2, resumeAfter: 3)
        let runs = machine.take().filter { $0["t"] == "run" }
        #expect(runs.count == 32)
        #expect(runs.first?["do"] == [["do": "title", "text": "8"]])
    }

    @Test("Every command reads back from the JSON the page gets; anything else reads as nil")
    func roundTrip() {
        let commands: [ClientCommand] = [
            .focus("#a"), .scrollIntoView("#b"), .setTitle("T"), .copyToClipboard("x"), .addClass("c", to: "#d"),
            .removeClass("c", from: "#d"), .toggleClass("c", on: "#d"), .setAttribute("aria-label", to: "L", at: "#e"),
            .toggleAttribute("aria-expanded", between: "true", and: "false", at: "#f"),
            .push(["mine": 1250, "ids": ["a", "b"]], toHook: "bid-chart"), .push(.null, toHook: "h"),
        ]
        #expect(commands.map { ClientCommand(json: $0.json) } == commands)
        for json: JSON in [
            ["do": "fly", "at": "#a"], ["do": "focus"], ["do": "set-attr", "attr": "x", "at": "#a"],
            ["do": "toggle-attr", "attr": "x", "values": ["a"], "at": "#a"], ["do": "push", "value": 1], "focus",
        ] {
            #expect(ClientCommand(json: json) == nil, "\(json)")
        }
    }

    @Test("A page that lost its documents gets each stage's last title again after the mounts")
    func titleAfterSnapshot() {
        let machine = SessionMachine { machine, _ in _ = machine.present(Stage(name: "home")) }
        machine.attach()
        let lot = machine.present(Stage(name: "lot"), .push, url: "/lots/1")
        machine.perform(
            machine.state.run([.setTitle("Lot 1"), .focus("#amount"), .setTitle("Lot 1 · Auctions")], in: lot))
        machine.endTurn()
        let last = machine.take().last?["seq"]?.intValue ?? 0
        machine.perform(machine.state.acknowledge(seq: last))  // the page had them all, and said so
        machine.perform(machine.state.detach(1))
        machine.attach(2, resumeAfter: 0)  // a reload: the page has nothing, the server no replay
        let sent = machine.take()
        #expect(sent.map { $0["t"] } == ["joined", "mount", "mount", "run"])
        #expect(sent[3]["stage"] == .string(lot) && sent[3]["do"] == [["do": "title", "text": "Lot 1 · Auctions"]])
        machine.perform(machine.state.detach(2))
        machine.attach(3, resumeAfter: sent[3]["seq"]?.intValue)  // nothing missed: nothing again
        #expect(machine.take().map { $0["t"] } == ["joined"])
    }

    @Test("Commands the app's first stages run as it starts follow their mounts in the first answer")
    func commandsAtStart() {
        let machine = SessionMachine { machine, _ in
            let stage = Stage(name: "lot")
            let id = machine.present(stage)
            machine.perform(machine.state.run([.setTitle("Lot 7"), .focus("#amount")], in: id))
        }
        machine.attach(path: "/lots/7")
        let sent = machine.take()
        #expect(sent.map { $0["t"] } == ["joined", "mount", "run"])
        #expect(sent[2]["do"] == [["do": "title", "text": "Lot 7"], ["do": "focus", "at": "#amount"]])
    }

    @Test("Commands a stage runs before it is shown wait for it; a page-only event is declared, not handled")
    func waitingAndPageOnly() {
        let stage = Stage(name: "about")
        stage.run(Just([ClientCommand.focus("#close")]))
        stage.on("details", runs: [.toggleClass("open", on: ".details")])
        #expect(
            stage.eventOptionsJSON == [
                "details": ["run": [["do": "toggle-class", "class": "open", "at": ".details"]], "local": true]
            ])
        #expect(throws: StageEventError.self) { try stage.handle(event: "details", value: nil) }
        let host = RecordingStageHost()
        stage.host = host
        #expect(host.commands == [[.focus("#close")]], "given as soon as the session listens")
        stage.cancel()
        #expect(stage.host == nil)
    }

    @Test("A stage's commands follow its patches of the same turn, so they find what the patches made")
    func commandsAfterPatches() {
        let stage = Stage(name: "lot")
        let rows = CurrentValueSubject<JSON, Never>([])
        stage.bind(rows, to: "rows")
        let machine = SessionMachine { machine, _ in _ = machine.present(stage) }
        machine.attach()
        _ = machine.take()
        rows.send([["id": "a"]])  // a new row, whose element a hook is on
        machine.perform(machine.state.run([.push(["mine": 1], toHook: "row-chart")], in: "lot"))
        machine.endTurn()
        let sent = machine.take()
        #expect(sent.map { $0["t"] } == ["patch", "run"])
        #expect(sent.map { $0["seq"]?.intValue ?? 0 } == [2, 3], "in sequence")
    }

    @Test("A stage pushes each value to a hook as a command; a value JSON cannot hold is refused, not sent")
    func pushToHook() {
        let stage = Stage(name: "lot")
        let messages = PassthroughSubject<JSON, Never>()
        stage.push(messages, to: "bid-chart")
        let host = RecordingStageHost()
        stage.host = host
        messages.send(["mine": 1250])
        messages.send(["mine": .double(.nan)])
        messages.send(7)
        let (received, failures) = (host.commands, host.failures)
        #expect(received == [[.push(["mine": 1250], toHook: "bid-chart")], [.push(7, toHook: "bid-chart")]])
        #expect(failures.count == 1 && failures[0].contains("hook \"bid-chart\""))
        #expect(received.first?.first?.json == ["do": "push", "hook": "bid-chart", "value": ["mine": 1250]])
    }
}
