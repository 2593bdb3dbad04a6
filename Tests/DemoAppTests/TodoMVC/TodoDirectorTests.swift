import Footlight
import Testing
import TodoMVC

@Suite struct TodoDirectorTests {
    /// The Director with plain subjects for its inputs, recording its outputs.
    final class Harness {
        let list = CurrentValueSubject<[Todo], Never>([])
        let address = PassthroughSubject<TodoFilter, Never>()
        let add = PassthroughSubject<String, Never>()
        let toggle = PassthroughSubject<(id: String, completed: Bool), Never>()
        let toggleAll = PassthroughSubject<Bool, Never>()
        let remove = PassthroughSubject<String, Never>()
        let beginEdit = PassthroughSubject<String, Never>()
        let commitEdit = PassthroughSubject<(id: String, title: String), Never>()
        let cancelEdit = PassthroughSubject<String, Never>()
        let clearCompleted = PassthroughSubject<Void, Never>()
        let director: TodoDirector
        var changes: [TodoChange] = []
        var rows: [TodoDirector.Row] = []
        var left = -1
        var word = ""
        var filter = ""
        var began: [String] = []
        var flags = (items: false, completed: false, all: false)
        var subscriptions: [AnyCancellable] = []

        init() {
            director = TodoDirector(
                list: list.eraseToAnyPublisher(), address: address.eraseToAnyPublisher(),
                add: add.eraseToAnyPublisher(), toggle: toggle.eraseToAnyPublisher(),
                toggleAll: toggleAll.eraseToAnyPublisher(), remove: remove.eraseToAnyPublisher(),
                beginEdit: beginEdit.eraseToAnyPublisher(), commitEdit: commitEdit.eraseToAnyPublisher(),
                cancelEdit: cancelEdit.eraseToAnyPublisher(), clearCompleted: clearCompleted.eraseToAnyPublisher())
            subscriptions = [
                director.changes.sink { [unowned self] in changes.append($0) },
                director.rows.sink { [unowned self] in rows = $0 },
                director.itemsLeft.sink { [unowned self] in left = $0 },
                director.itemsLeftWord.sink { [unowned self] in word = $0 },
                director.filter.sink { [unowned self] in filter = $0 },
                director.editingBegan.sink { [unowned self] in began.append($0) },
                director.hasItems.sink { [unowned self] in flags.items = $0 },
                director.hasCompleted.sink { [unowned self] in flags.completed = $0 },
                director.allCompleted.sink { [unowned self] in flags.all = $0 },
            ]
        }
    }

    static let three = [
        Todo(id: 1, title: "One"), Todo(id: 2, title: "Two", completed: true), Todo(id: 3, title: "Three"),
    ]

    @Test("Counts, flags and the word after the count follow the list")
    func counts() {
        let h = Harness()
        #expect((h.left, h.word, h.flags.items, h.flags.completed, h.flags.all) == (0, "items", false, false, false))
        h.list.send([Todo(id: 1, title: "One")])
        #expect((h.left, h.word, h.flags.items, h.flags.completed, h.flags.all) == (1, "item", true, false, false))
        h.list.send(Self.three)
        #expect((h.left, h.word, h.flags.completed, h.flags.all) == (2, "items", true, false))
        h.list.send(Self.three.map { Todo(id: $0.id, title: $0.title, completed: true) })
        #expect((h.left, h.flags.all) == (0, true))
    }

    @Test("The address's filter chooses the rows, without changing the list")
    func filters() {
        let h = Harness()
        h.list.send(Self.three)
        #expect(h.rows.map(\.id) == ["1", "2", "3"] && h.filter == "all")
        h.address.send(.active)
        #expect(h.rows.map(\.id) == ["1", "3"] && h.filter == "active")
        h.address.send(.completed)
        #expect(h.rows.map(\.id) == ["2"] && h.filter == "completed")
        #expect(h.changes.isEmpty)
    }

    @Test("Each event becomes one change, in order")
    func changes() {
        let h = Harness()
        h.add.send("Buy milk")
        h.toggle.send((id: "2", completed: false))
        h.toggleAll.send(true)
        h.remove.send("3")
        h.clearCompleted.send(())
        h.remove.send("not-a-number")
        #expect(
            h.changes == [
                .add(title: "Buy milk"), .setCompleted(id: 2, false), .setAllCompleted(true), .remove(id: 3),
                .clearCompleted,
            ])
    }

    @Test("Editing: a double click marks the row, Enter or blur commits once, Escape discards")
    func editing() {
        let h = Harness()
        h.list.send(Self.three)
        h.beginEdit.send("1")
        #expect(h.rows.first(where: \.editing)?.id == "1" && h.began == ["1"])
        h.commitEdit.send((id: "1", title: "Uno"))
        // The blur that follows Enter (the field hides) is no second edit.
        h.commitEdit.send((id: "1", title: "Uno"))
        #expect(h.changes == [.rename(id: 1, title: "Uno")])
        #expect(!h.rows.contains { $0.editing })
        h.beginEdit.send("3")
        h.cancelEdit.send("3")
        h.commitEdit.send((id: "3", title: "changed, then Escape"))
        #expect(h.changes == [.rename(id: 1, title: "Uno")])
        #expect(!h.rows.contains { $0.editing })
    }
}
