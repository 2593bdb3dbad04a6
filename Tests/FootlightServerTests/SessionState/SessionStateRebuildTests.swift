import Footlight
import FootlightJSON
import Testing

@testable import FootlightServer

@Suite("SessionState: rebuilding a session from what the page showed")
struct SessionStateRebuildTests {
    /// A stage with a recoverable text, an event that is not recoverable, and a
    /// recoverable count that throws for a negative value (a failing Director).
    final class FormStage {
        let stage: Stage
        let text = CurrentValueSubject<String, Never>("")
        private let typed = PassthroughSubject<String, Never>()
        private let press = PassthroughSubject<Void, Never>()
        private(set) var presses = 0

        init(_ name: String) {
            stage = Stage(name: name)
            stage.bind(text, to: "text")
            stage.on("text", send: typed, options: EventOptions(debounce: .milliseconds(300), recoverable: true))
            stage.on("press", send: press)
            stage.on("count", options: .recoverable) { (count: Int) in
                guard count >= 0 else { throw CountingStageError() }
            }
            stage.keep(typed.sink { [text] in text.send($0) })
            stage.keep(press.sink { [unowned self] in presses += 1 })
        }
    }

    /// An app with a root "home", a pushed "item" at /items/<id>, and the modal "dialog"
    /// that its restorer presents (any other modal template is left alone).
    static func machine(
        made: @escaping (FormStage) -> Void = { _ in }
    ) -> SessionMachine {
        SessionMachine(
            entry: { machine, path in
                let home = FormStage("home")
                made(home)
                _ = machine.present(home.stage)
                if path.hasPrefix("/items/") {
                    let item = FormStage("item")
                    made(item)
                    _ = machine.present(item.stage, .push, url: path)
                }
            },
            restoreModal: { machine, template in
                guard template == "dialog" else { return }
                let dialog = FormStage("dialog")
                made(dialog)
                _ = machine.present(dialog.stage, .modal)
            })
    }

    typealias Restored = ClientMessage.Restore.Stage

    @Test("The stack, the modal and the kept values come back; joined names each stage's new id")
    func wholePage() {
        var stages: [FormStage] = []
        let machine = Self.machine { stages.append($0) }
        machine.attach(
            path: "/items/7",
            restore: ClientMessage.Restore(stages: [
                Restored(template: "home", placement: .root),
                Restored(template: "item", placement: .push, url: "/items/7", values: ["text": "120"]),
                Restored(template: "dialog", placement: .modal, values: ["text": "a@example.com"]),
            ]))
        let sent = machine.take()
        #expect(sent.map { $0["t"] } == ["joined", "mount", "mount", "mount"])
        #expect(sent[0]["resumed"] == false)
        #expect(sent[0]["rebuilt"] == ["home", "item-1", "dialog-2"])
        #expect(sent[1]["doc"] == ["text": ""])
        #expect(sent[2]["doc"] == ["text": "120"], "the kept value is in the first mount")
        #expect(sent[3]["place"] == "modal" && sent[3]["doc"] == ["text": "a@example.com"])
        #expect(stages.map(\.presses) == [0, 0, 0])
        #expect(machine.logs.contains("rebuilt 3 of 3 stages the page showed"))
    }

    @Test("Stages the app did not show again, and values it does not take, get typed errors")
    func mismatches() {
        let machine = Self.machine()
        machine.attach(
            path: "/",
            restore: ClientMessage.Restore(stages: [
                Restored(template: "home", placement: .root, values: ["press": true, "nope": 1, "text": "kept"]),
                Restored(template: "item", placement: .push, url: "/items/7", values: ["text": "lost"]),
                Restored(template: "unknown", placement: .modal),
                Restored(template: "home", placement: .root, values: ["count": "seven"]),
            ]))
        let sent = machine.take()
        #expect(sent[0]["rebuilt"] == ["home", .null, .null, .null], "one home only: the second has no match")
        #expect(sent[1]["doc"] == ["text": "kept"])
        let errors = sent.filter { $0["t"] == "error" }
        #expect(
            errors.map { $0["code"] } == [
                "not-recoverable", "not-recoverable", "not-rebuilt", "not-rebuilt", "not-rebuilt",
            ]
        )
        #expect(errors.allSatisfy { $0["n"] == nil }, "no event number: nothing the page numbered is consumed")
        #expect(errors[0]["message"]?.stringValue?.contains("\"press\"") == true)
        #expect(errors[2]["message"]?.stringValue?.contains("\"item\" (push)") == true)
    }

    @Test("A value of the wrong type is refused as bad-value; one the Director fails on ends the session")
    func badValues() {
        let machine = Self.machine()
        machine.attach(
            path: "/",
            restore: ClientMessage.Restore(stages: [
                Restored(template: "home", placement: .root, values: ["count": "x"])
            ]))
        #expect(machine.take().compactMap { $0["t"] == "error" ? $0["code"] : nil } == ["bad-value"])

        let failing = Self.machine()
        failing.attach(
            path: "/",
            restore: ClientMessage.Restore(stages: [Restored(template: "home", placement: .root, values: ["count": -1])]
            ))
        #expect(failing.ended)
        #expect(failing.closes.map(\.code) == [4001])
        #expect(failing.take().compactMap { $0["code"] } == ["director-failed"])
    }

    @Test("Of two pushes of one template, each kept value goes to the one at its address")
    func matchingByAddress() {
        var items: [FormStage] = []
        let machine = SessionMachine(entry: { machine, _ in
            _ = machine.present(FormStage("home").stage)
            for url in ["/items/2", "/items/3"] {
                let item = FormStage("item")
                items.append(item)
                _ = machine.present(item.stage, .push, url: url)
            }
        })
        machine.attach(
            path: "/items/3",
            restore: ClientMessage.Restore(stages: [
                Restored(template: "home", placement: .root),
                Restored(template: "item", placement: .push, url: "/items/3", values: ["text": "three"]),
            ]))
        #expect(machine.take().first?["rebuilt"] == ["home", "item-2"])
        #expect(items.map(\.text.value) == ["", "three"])
    }

    @Test("Kept values count against the event rate limit: those over the burst get one rate-limited error")
    func rateLimited() {
        var limits = SessionLimits()
        limits.eventBurst = 3
        var texts: [String] = []
        let machine = SessionMachine(limits: limits) { machine, _ in
            for index in 0..<5 {
                let form = FormStage("form-\(index)")
                form.stage.keep(form.text.dropFirst().sink { texts.append($0) })
                _ = machine.present(form.stage)
            }
        }
        machine.attach(
            path: "/",
            restore: ClientMessage.Restore(
                stages: (0..<5).map {
                    Restored(template: "form-\($0)", placement: .root, values: ["text": .string("v\($0)")])
                }))
        let errors = machine.take().filter { $0["t"] == "error" }
        #expect(texts == ["v0", "v1", "v2"])
        #expect(errors.map { $0["code"] } == ["rate-limited"])
        #expect(errors.first?["message"]?.stringValue?.hasPrefix("2 kept value(s)") == true)
    }

    @Test("The restore is used once: a resume of the rebuilt session replays nothing of it")
    func onlyOnce() {
        let machine = Self.machine()
        let restore = ClientMessage.Restore(stages: [
            Restored(template: "home", placement: .root, values: ["text": "a"])
        ])
        machine.attach(path: "/", restore: restore)
        _ = machine.take()
        machine.perform(machine.state.detach(1))
        machine.attach(2, resumeAfter: 1, path: "/", restore: restore)
        let sent = machine.take()
        #expect(sent.map { $0["t"] } == ["joined"])
        #expect(sent[0]["resumed"] == true && sent[0]["rebuilt"] == nil)
    }

    @Test("A component's kept value sent to its host stage, named by the hosts, reaches the component")
    func componentValueThroughItsHost() {
        let form = FormStage("form")
        let dialog = Stage(name: "dialog")
        dialog.place(form.stage, at: "form")
        var id = ""
        let machine = SessionMachine { machine, _ in id = machine.present(dialog) }
        machine.attach()
        _ = machine.take()
        machine.event(1, "form/text", stage: id, value: "grace@example.com")
        #expect(form.text.value == "grace@example.com")
        #expect(machine.take().filter { $0["t"] == "error" }.isEmpty)

        // Only a recoverable event, of a component that is there.
        for (number, name) in [(2, "form/press"), (3, "nowhere/text"), (4, "form/")] as [(Int64, String)] {
            machine.event(number, name, stage: id, value: "x")
            let errors = machine.take().filter { $0["t"] == "error" }
            #expect(errors.map { $0["code"] } == ["unknown-event"], "\(name)")
            #expect(errors.first?["n"] == .int(number))
        }
        #expect(form.presses == 0 && form.text.value == "grace@example.com")
        machine.event(5, "form/text", stage: id, value: "ada@example.com")
        #expect(form.text.value == "ada@example.com", "the session goes on")
    }

    @Test("Without a restore, joined has no rebuilt member, and the modal restorer is not called")
    func plainJoin() {
        var restored: [String] = []
        let machine = SessionMachine(
            entry: { machine, _ in _ = machine.present(Stage(name: "home")) },
            restoreModal: { _, template in restored.append(template) })
        machine.attach(path: "/")
        #expect(machine.take()[0]["rebuilt"] == nil)
        #expect(restored.isEmpty)
    }
}
