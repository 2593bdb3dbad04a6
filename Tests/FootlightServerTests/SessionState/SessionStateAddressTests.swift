import Footlight
import FootlightJSON
import Testing

@testable import FootlightServer

@Suite("SessionState: a stage's address as its Director's state")
struct SessionStateAddressTests {
    /// A list with a filter ("", "active" or "completed") shown as its address: "/", "/active",
    /// "/completed". An unknown address is shown as "/" instead, replacing it.
    final class FilterStage {
        let stage: Stage
        let filter = CurrentValueSubject<String, Never>("")
        private let went = PassthroughSubject<Address, Never>()
        private let choose = PassthroughSubject<String, Never>()
        private(set) var corrected = false

        init(_ name: String = "todos", at url: String = "/") {
            stage = Stage(name: name)
            stage.bind(filter, to: "filter")
            stage.bindAddress(
                filter.map { [unowned self] filter in
                    Address(filter.isEmpty ? "/" : "/\(filter)", replaces: corrected)
                })
            stage.onAddress(send: went)
            stage.on("choose", send: choose)
            stage.keep(choose.sink { [filter] in filter.send($0) })
            stage.keep(went.sink { [unowned self] in go(to: $0) })
            go(to: Address(url))
        }

        private func go(to address: Address) {
            let name = String(address.path.dropFirst())
            corrected = !["", "active", "completed"].contains(name)
            filter.send(corrected ? "" : name)
        }
    }

    @Test("Mounted at its Director's address; a change sends an address message after the patch, no new stage")
    func output() {
        var todos: FilterStage?
        let machine = SessionMachine { machine, path in
            let stage = FilterStage(at: path)
            todos = stage
            _ = machine.present(stage.stage, url: "/ignored")
        }
        machine.attach(path: "/active")
        let mounted = machine.take()
        #expect(mounted.map { $0["t"] } == ["joined", "mount"])
        #expect(mounted[1]["url"] == "/active", "the Director's address wins over the url given")

        machine.event(1, "choose", stage: "todos", value: "completed")
        let sent = machine.take()
        #expect(sent.map { $0["t"] } == ["patch", "address"])
        #expect(sent[1] == ["t": "address", "seq": 3, "stage": "todos", "url": "/completed"])
        #expect(machine.state.stages.entries.map(\.url) == ["/completed"])
        #expect(todos?.filter.value == "completed")
    }

    @Test("Back and Forward come in as the address input; what the page shows is not sent back; a correction replaces")
    func input() {
        var todos: FilterStage?
        let machine = SessionMachine { machine, _ in
            let stage = FilterStage()
            todos = stage
            _ = machine.present(stage.stage)
        }
        machine.attach(path: "/")
        _ = machine.take()
        machine.event(1, "@address", stage: "todos", value: "/active")
        #expect(todos?.filter.value == "active")
        #expect(machine.take().map { $0["t"] } == ["patch"], "the page shows /active already")

        machine.event(2, "@address", stage: "todos", value: "/nowhere")
        let sent = machine.take()
        #expect(sent.map { $0["t"] } == ["patch", "address"])
        #expect(sent[1]["url"] == "/" && sent[1]["replace"] == true)

        // Bounded: not a path, or longer than the page may send: a typed refusal; the session goes on.
        for (number, value) in [
            (3, "active"), (4, "//elsewhere.example"), (5, "/\\elsewhere.example"),
            (6, .string("/" + String(repeating: "a", count: 2048))),
        ]
            as [(Int64, JSON)]
        {
            machine.event(number, "@address", stage: "todos", value: value)
            #expect(machine.take().compactMap { $0["code"] } == ["bad-value"])
        }
        #expect(todos?.filter.value == "" && machine.state.stages.entries.map(\.url) == ["/"])
    }

    @Test("A rebuild restores the address the page showed, as the stage's input")
    func rebuild() {
        var todos: FilterStage?
        let machine = SessionMachine { machine, path in
            _ = machine.present(Stage(name: "home"))
            let stage = FilterStage()
            todos = stage
            _ = machine.present(stage.stage, .push, url: path)
        }
        machine.attach(
            path: "/",
            restore: ClientMessage.Restore(stages: [
                .init(template: "home", placement: .root),
                .init(template: "todos", placement: .push, url: "/completed"),
            ]))
        let sent = machine.take()
        #expect(sent[0]["rebuilt"] == ["home", "todos-1"])
        #expect(todos?.filter.value == "completed")
        #expect(sent.last?["url"] == "/completed" && sent.last?["doc"] == ["filter": "completed"])
        #expect(!sent.contains { $0["t"] == "error" || $0["t"] == "address" })
    }

    @Test("A deep stack of one template rebuilt at its top's address: the top is the stage rebuilt, not one below")
    func deepStack() {
        let machine = SessionMachine { machine, path in
            _ = machine.present(Stage(name: "home"))
            _ = machine.present(Stage(name: "note"), .push, url: path)
        }
        machine.attach(
            path: "/notes/3",
            restore: ClientMessage.Restore(stages: [
                .init(template: "home", placement: .root),
                .init(template: "note", placement: .push, url: "/notes/1"),
                .init(template: "note", placement: .push, url: "/notes/2"),
                .init(template: "note", placement: .push, url: "/notes/3"),
            ]))
        #expect(machine.take()[0]["rebuilt"] == ["home", .null, .null, "note-1"])
    }

    @Test(
        "A page loaded anew at another address of its stage (Back to an entry of an earlier load) takes the stage there, whole; a reconnect's stale path does not"
    )
    func arrivesAtAnotherLoad() {
        var todos: FilterStage?
        let machine = SessionMachine { machine, path in
            let stage = FilterStage(at: path)
            todos = stage
            _ = machine.present(stage.stage)
        }
        machine.attach(path: "/")
        machine.event(1, "choose", stage: "todos", value: "completed")
        #expect(machine.takeTypes() == ["joined", "mount", "patch", "address"])

        // A reconnect of the same page: its path may lag (the address message is replayed); no change.
        machine.perform(machine.state.detach(1))
        machine.attach(2, resumeAfter: 1, path: "/")
        #expect(todos?.filter.value == "completed")
        #expect(machine.takeTypes() == ["joined", "patch", "address"], "the missed messages, replayed")

        // Back across page loads: the tab loads "/" again and resumes with nothing applied.
        machine.perform(machine.state.detach(2))
        machine.attach(3, resumeAfter: 0, path: "/")
        let sent = machine.take()
        #expect(sent.map { $0["t"] } == ["joined", "mount"], "the page whole, not the replayed history")
        #expect(sent[0]["snapshot"] == true)
        #expect(sent[1]["url"] == "/")
        #expect(sent[1]["doc"]?["filter"] == "")
        #expect(todos?.filter.value == "")
        #expect(machine.state.stages.entries.map(\.url) == ["/"])

        // Loaded anew at the address it shows: nothing for the stage to hear.
        machine.perform(machine.state.detach(3))
        machine.event(2, "choose", stage: "todos", value: "active")
        _ = machine.take()
        machine.attach(4, resumeAfter: 0, path: "/active")
        #expect(todos?.filter.value == "active")
        #expect(machine.state.stages.entries.map(\.url) == ["/active"])
    }
}
