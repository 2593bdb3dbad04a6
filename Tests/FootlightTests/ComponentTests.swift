import Footlight
import FootlightJSON
import FootlightServer
import FootlightTesting
import Testing

/// A tally: a component with a Director of its own (a count and a label from its row).
private func tallyStage(label: AnyPublisher<String, Never> = Just("tally").eraseToAnyPublisher()) -> Stage {
    let add = PassthroughSubject<Void, Never>()
    let count = add.scan(0) { total, _ in total + 1 }.prepend(0)
    let stage = Stage(name: "tally")
    stage.bind(count, to: "count")
    stage.bind(label, to: "label")
    stage.on("add", send: add)
    let name = CurrentValueSubject<String, Never>("")
    stage.bind(name, to: "name")
    stage.on("name", send: name, options: .recoverable)
    return stage
}

/// A row of a board: what its tally shows.
private struct BoardItem: ViewValue, Identifiable, Equatable {
    let id: String
    let label: String
    var viewJSON: JSON { ["id": .string(id), "label": .string(label)] }
}

/// A board: one tally at "tally", which "swap" replaces, and one per row of "items".
private struct BoardScene: Scene {
    let items: AnyPublisher<[RowChange<BoardItem>], Never>

    func makeStage(context: Context) -> Stage {
        let stage = Stage(name: "board")
        stage.place(tallyStage(), at: "tally")
        let swap = PassthroughSubject<Void, Never>()
        stage.on("swap", send: swap)
        stage.keep(swap.sink { [unowned stage] in stage.place(tallyStage(), at: "tally") })
        let keepPlaced = PassthroughSubject<Void, Never>()
        stage.on("keep", send: keepPlaced)
        stage.keep(
            keepPlaced.sink { [unowned stage] in
                if let placed = stage.components[ComponentHost(name: "tally")] { stage.place(placed, at: "tally") }
            })
        let drop = PassthroughSubject<Void, Never>()
        stage.on("drop", send: drop)
        stage.keep(drop.sink { [unowned stage] in stage.removeComponent(at: "tally") })
        stage.bind(items, to: "items", component: "card") { row in
            tallyStage(label: row.map(\.label).eraseToAnyPublisher())
        }
        let open = PassthroughSubject<Void, Never>()
        stage.on("open", send: open)
        stage.keep(open.sink { context.push(BoardScene(items: Empty().eraseToAnyPublisher()), url: "/board") })
        return stage
    }
}

@Suite struct ComponentTests {
    private let items = PassthroughSubject<[RowChange<BoardItem>], Never>()

    private func board() -> SceneTester {
        nonisolated(unsafe) let items = items.eraseToAnyPublisher()
        return SceneTester({ context, _ in context.show(BoardScene(items: items)) })
    }

    @Test("A component is mounted with its parent, has its own document and takes its own events")
    func ownDocumentAndEvents() throws {
        let tester = board()
        let tally = try #require(tester.component("tally", in: "board"))
        #expect(tester.stageIDs == ["board"])
        #expect(tester.componentIDs == [tally])
        #expect(tester.document(tally) == ["count": 0, "label": "tally", "name": ""])
        #expect(tester.document("board") == ["items": []])
        tester.send("add", to: tally)
        tester.expect(tally, ["count": 1])
        tester.expectPatch(tally, [["op": "replace", "path": "/count", "value": 1]])
        tester.expectPatch("board", [])
        // The parent does not take its component's events, nor the component its parent's.
        tester.send("add", to: "board")
        #expect(tester.errors.last?.code == "unknown-event")
        tester.send("swap", to: tally)
        #expect(tester.errors.last?.code == "unknown-event")
        tester.finish()
    }

    @Test("A component replaced at its host is unmounted, and one removed leaves its host empty")
    func replacedAndRemoved() throws {
        let tester = board()
        let first = try #require(tester.component("tally", in: "board"))
        tester.send("swap", to: "board")
        tester.expectCommands([
            .unmountComponent(template: "tally"),
            .mountComponent(template: "tally", in: "board", at: ComponentHost(name: "tally")),
        ])
        let second = try #require(tester.component("tally", in: "board"))
        #expect(second != first)
        #expect(tester.componentIDs == [second])
        tester.send("add", to: second)
        tester.expect(second, ["count": 1])
        // The same stage placed again where it is: nothing happens, and it still counts.
        tester.send("keep", to: "board")
        tester.expectCommands([])
        tester.send("add", to: second)
        tester.expect(second, ["count": 2])
        tester.send("drop", to: "board")
        tester.expectCommands([.unmountComponent(template: "tally")])
        #expect(tester.componentIDs.isEmpty)
        tester.send("drop", to: "board")  // nothing there: nothing happens
        tester.expectCommands([])
        tester.finish()
    }

    @Test("One component per row: mounted after the row, fed its updates, kept when moved, gone with it")
    func componentPerRow() throws {
        let tester = board()
        items.send([.insert(BoardItem(id: "a", label: "Apples")), .insert(BoardItem(id: "b", label: "Pears"))])
        tester.settle()
        // The list holds ids; the mirror checks each component's row was there first.
        tester.expect("board", ["items": [["id": "a"], ["id": "b"]]])
        tester.expectPatch(
            "board",
            [
                ["op": "add", "path": "/items/0", "value": ["id": "a"]],
                ["op": "add", "path": "/items/1", "value": ["id": "b"]],
            ])
        tester.expectCommands([
            .mountComponent(template: "tally", in: "board", at: ComponentHost(name: "card", row: "a")),
            .mountComponent(template: "tally", in: "board", at: ComponentHost(name: "card", row: "b")),
        ])
        let a = try #require(tester.component("card", row: "a", in: "board"))
        let b = try #require(tester.component("card", row: "b", in: "board"))
        #expect(tester.document(a)?["label"] == "Apples")
        #expect(tester.document(b)?["label"] == "Pears")

        // An update reaches the row's component alone.
        items.send([.update(BoardItem(id: "a", label: "Green apples"))])
        tester.settle()
        tester.expect(a, ["label": "Green apples"])
        tester.expectPatch("board", [])
        // Each component keeps its own state; a move is one operation of the list.
        tester.send("add", to: b)
        tester.expect(b, ["count": 1])
        items.send([.move(id: "b", to: 0)])
        tester.settle()
        tester.expect("board", ["items": [["id": "b"], ["id": "a"]]])
        tester.expectPatch("board", [["op": "move", "from": "/items/1", "path": "/items/0"]])
        tester.expectCommands([])
        #expect(tester.component("card", row: "b", in: "board") == b)

        // Removed: its component is unmounted.
        items.send([.remove(id: "a")])
        tester.settle()
        tester.expect("board", ["items": [["id": "b"]]])
        tester.expectCommands([.unmountComponent(template: "tally")])
        #expect(!tester.componentIDs.contains(a))

        // A reset keeps the components of the rows it keeps.
        items.send([.reset([BoardItem(id: "c", label: "Plums"), BoardItem(id: "b", label: "Pears")])])
        tester.settle()
        tester.expect("board", ["items": [["id": "c"], ["id": "b"]]])
        tester.expectCommands([
            .mountComponent(template: "tally", in: "board", at: ComponentHost(name: "card", row: "c"))
        ])
        #expect(tester.component("card", row: "b", in: "board") == b)
        #expect(tester.document(b)?["count"] == 1)
        tester.finish()
    }

    @Test("Rows removed together unmount their components together; one added and removed at once is never mounted")
    func removedTogether() {
        let tester = board()
        items.send((0..<5).map { .insert(BoardItem(id: "r\($0)", label: "\($0)")) })
        tester.settle()
        tester.expectCommands(
            (0..<5).map { row in
                .mountComponent(template: "tally", in: "board", at: ComponentHost(name: "card", row: "r\(row)"))
            })
        // Three rows removed in one list of changes, and a row added and removed within it.
        items.send([
            .remove(id: "r1"), .remove(id: "r3"), .insert(BoardItem(id: "n", label: "new")), .remove(id: "n"),
            .remove(id: "r4"),
        ])
        tester.settle()
        tester.expect("board", ["items": [["id": "r0"], ["id": "r2"]]])
        tester.expectCommands(Array(repeating: .unmountComponent(template: "tally"), count: 3))
        #expect(tester.component("card", row: "n", in: "board") == nil)
        // Cleared: the rest go at once.
        items.send([.reset([])])
        tester.settle()
        tester.expect("board", ["items": []])
        tester.expectCommands(Array(repeating: .unmountComponent(template: "tally"), count: 2))
        #expect(tester.componentIDs.count == 1, "the board's own tally, not a row's")
        tester.finish()
    }

    @Test("A parent's stage popped takes its components with it, unmounted first")
    func poppedWithParent() throws {
        let tester = board()
        tester.send("open", to: "board")
        tester.expectCommands([
            .mount(template: "board", placement: .push, url: "/board"),
            .mountComponent(template: "tally", in: "board", at: ComponentHost(name: "tally")),
        ])
        let pushed = try #require(tester.stageIDs.first { $0.hasPrefix("board-") })
        let tally = try #require(tester.component("tally", in: pushed))
        tester.send("@back", to: pushed)
        tester.expectCommands([.unmountComponent(template: "tally"), .unmount(template: "board", placement: .push)])
        #expect(!tester.componentIDs.contains(tally))
        // The mirror checks that no component outlives its parent.
        tester.finish()
    }

    @Test("A rebuilt session gives a component the value the page kept for it, named by its host")
    func rebuildRestoresComponentValues() throws {
        nonisolated(unsafe) let items = items.eraseToAnyPublisher()
        let restore = ClientMessage.Restore(stages: [
            .init(template: "board", placement: .root, values: ["tally/name": "Ada", "nowhere/name": "x"])
        ])
        let tester = SceneTester({ context, _ in context.show(BoardScene(items: items)) }, restoring: restore)
        #expect(tester.rebuilt == ["board"])
        let tally = try #require(tester.component("tally", in: "board"))
        #expect(tester.document(tally)?["name"] == "Ada")
        #expect(tester.errors.map(\.code) == ["not-recoverable"])
        #expect(tester.errors.first?.message.contains("nowhere/name") == true)
        tester.finish()
    }
}
