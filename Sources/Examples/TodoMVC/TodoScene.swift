import Footlight
import FootlightJSON
import Foundation

/// TodoMVC's one stage, `todoapp`: the visitor's list (shared live by their tabs), its
/// filter at its own address (`/`, `/active`, `/completed`), each item edited in place.
public struct TodoScene: Scene {
    let lists: TodoLists
    let filter: TodoFilter

    /// The list of the session's visitor, showing `filter` first (the address opened).
    public init(lists: TodoLists, filter: TodoFilter) {
        self.lists = lists
        self.filter = filter
    }

    public func makeStage(context: Context) -> Stage {
        let environment = context.environment
        // A page whose request carried no visitor cookie (cookies blocked) gets a list of its
        // own for this session, never one shared with other such pages.
        let visitor = environment.request.visitor ?? VisitorID(rawValue: "session-\(UUID().uuidString)")
        let add = PassthroughSubject<FormEvent, Never>()
        let toggle = PassthroughSubject<RowInput<Bool>, Never>()
        let toggleAll = PassthroughSubject<Bool, Never>()
        let remove = PassthroughSubject<RowEvent, Never>()
        let beginEdit = PassthroughSubject<RowEvent, Never>()
        let editKey = PassthroughSubject<KeyEvent, Never>()
        let editBlur = PassthroughSubject<RowInput<String>, Never>()
        let clearCompleted = PassthroughSubject<Void, Never>()
        let went = PassthroughSubject<Address, Never>()
        let chosen = PassthroughSubject<TodoFilter, Never>()

        let director = TodoDirector(
            list: lists.list(of: visitor, on: environment.executor),
            address: went.map { TodoFilter(path: $0.path) }.merge(with: chosen).prepend(filter).eraseToAnyPublisher(),
            add: add.compactMap { $0.text("title") }.eraseToAnyPublisher(),
            toggle: toggle.map { (id: $0.id, completed: $0.value) }.eraseToAnyPublisher(),
            toggleAll: toggleAll.eraseToAnyPublisher(), remove: remove.map(\.id).eraseToAnyPublisher(),
            beginEdit: beginEdit.map(\.id).eraseToAnyPublisher(),
            commitEdit: editKey.filter { $0.key == "Enter" }.compactMap { key in
                key.id.map { (id: $0, title: key.value ?? "") }
            }
            .merge(with: editBlur.map { (id: $0.id, title: $0.value) })
            .eraseToAnyPublisher(),
            cancelEdit: editKey.filter { $0.key == "Escape" }.compactMap(\.id).eraseToAnyPublisher(),
            clearCompleted: clearCompleted.eraseToAnyPublisher())

        let stage = Stage(name: "todoapp")
        stage.bind(director.rows, to: "todos")
        stage.bind(director.itemsLeft, to: "left")
        stage.bind(director.itemsLeftWord, to: "leftWord")
        stage.bind(director.hasItems, to: "hasItems")
        stage.bind(director.hasCompleted, to: "hasCompleted")
        stage.bind(director.allCompleted, to: "allCompleted")
        stage.bind(director.filter, to: "filter")
        stage.bind(Just(""), to: "newTitle")
        stage.bindAddress(director.filter.map { Address(TodoFilter(rawValue: $0)?.path ?? "/") })
        stage.onAddress(send: went)
        // Enter in the new-todo field: its text goes, and the field is empty at once, so
        // the keys typed right after go into an empty field.
        stage.on("add", send: add, options: EventOptions(sets: ["newTitle": ""]))
        stage.on("toggle", send: toggle)
        stage.on("toggleAll", send: toggleAll)
        stage.on("destroy", send: remove)
        stage.on("edit", send: beginEdit)
        stage.on("editKey", send: editKey, options: .keys(["Enter", "Escape"]))
        stage.on("editBlur", send: editBlur)
        stage.on("clearCompleted", send: clearCompleted)
        for filter in TodoFilter.allCases {
            let choose = PassthroughSubject<Void, Never>()
            stage.on("show-\(filter.rawValue)", send: choose)
            stage.keep(choose.sink { chosen.send(filter) })
        }
        // The field of an item whose editing began takes focus, its text selected.
        stage.run(director.editingBegan.map { _ in [ClientCommand.focus(".todo-list li.editing .edit")] })
        stage.keep(director.changes.sink { change in lists.apply(change, for: visitor) })
        return stage
    }
}
