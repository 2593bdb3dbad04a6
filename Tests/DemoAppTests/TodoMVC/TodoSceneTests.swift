import Footlight
import FootlightJSON
import FootlightServer
import FootlightTesting
import Testing
import TodoMVC

/// TodoMVC's stage in process: each event of the page becomes one change of the visitor's
/// list, the filter is the stage's address, and every session of the visitor sees the list.
@Suite struct TodoSceneTests {
    static let ada = SessionRequest(visitor: VisitorID(rawValue: "ada"))

    static func row(_ id: Int, _ title: String, completed: Bool = false, editing: Bool = false) -> JSON {
        [
            "id": .string(String(id)), "title": .string(title), "completed": .bool(completed),
            "editing": .bool(editing),
            "editText": .string(editing ? title : ""),
        ]
    }

    @Test("An empty list, then items added, toggled, renamed, removed and cleared, each once")
    func editsTheList() {
        let tester = SceneTester(TodoApp.entry(TodoLists(store: TodoStore())), request: Self.ada)
        #expect(
            tester.document("todoapp")
                == [
                    "todos": [], "left": 0, "leftWord": "items", "hasItems": false, "hasCompleted": false,
                    "allCompleted": false, "filter": "all", "newTitle": "",
                ])
        tester.send("add", to: "todoapp", value: ["title": "  Buy milk "])
        tester.expect("todoapp", ["todos": [Self.row(1, "Buy milk")], "left": 1, "leftWord": "item", "hasItems": true])
        tester.send("add", to: "todoapp", value: ["title": "Walk the dog"])
        tester.expect(
            "todoapp",
            ["todos": [Self.row(1, "Buy milk"), Self.row(2, "Walk the dog")], "left": 2, "leftWord": "items"])
        tester.send("toggle", to: "todoapp", value: ["id": "1", "value": true])
        tester.expect(
            "todoapp",
            [
                "todos": [Self.row(1, "Buy milk", completed: true), Self.row(2, "Walk the dog")], "left": 1,
                "leftWord": "item", "hasCompleted": true,
            ])
        tester.send("edit", to: "todoapp", value: ["id": "2"])
        tester.expect(
            "todoapp",
            ["todos": [Self.row(1, "Buy milk", completed: true), Self.row(2, "Walk the dog", editing: true)]])
        tester.expectCommands([.run(template: "todoapp", [.focus(".todo-list li.editing .edit")])])
        tester.send("editKey", to: "todoapp", value: ["id": "2", "key": "Enter", "value": " Walk the cat "])
        tester.expect(
            "todoapp", ["todos": [Self.row(1, "Buy milk", completed: true), Self.row(2, "Walk the cat")]])
        // The blur of the field Enter hid is no second edit.
        tester.send("editBlur", to: "todoapp", value: ["id": "2", "value": "Walk the cat"])
        tester.send("toggleAll", to: "todoapp", value: true)
        tester.expect(
            "todoapp",
            [
                "todos": [Self.row(1, "Buy milk", completed: true), Self.row(2, "Walk the cat", completed: true)],
                "left": 0, "leftWord": "items", "allCompleted": true,
            ])
        tester.send("clearCompleted", to: "todoapp")
        tester.expect(
            "todoapp", ["todos": [], "hasItems": false, "hasCompleted": false, "allCompleted": false])
        tester.finish()
    }

    @Test(
        "A filter link changes the address and the rows, not the stage; Back comes in as the address; a deep link opens its filter"
    )
    func filters() {
        let lists = TodoLists(store: TodoStore())
        lists.apply(.add(title: "Active one"), for: VisitorID(rawValue: "ada"))
        lists.apply(.add(title: "Done one"), for: VisitorID(rawValue: "ada"))
        lists.apply(.setCompleted(id: 2, true), for: VisitorID(rawValue: "ada"))
        let tester = SceneTester(TodoApp.entry(lists), path: "/completed", request: Self.ada)
        #expect(tester.document("todoapp")?["filter"] == "completed")
        #expect(tester.document("todoapp")?["todos"] == [Self.row(2, "Done one", completed: true)])
        tester.send("show-active", to: "todoapp")
        tester.expect("todoapp", ["filter": "active", "todos": [Self.row(1, "Active one")]])
        tester.expectCommands([.address(template: "todoapp", url: "/active", replace: false)])
        tester.send(Stage.addressEvent, to: "todoapp", value: "/completed")
        tester.expect("todoapp", ["filter": "completed", "todos": [Self.row(2, "Done one", completed: true)]])
        tester.expectCommands([])
        #expect(tester.stageIDs == ["todoapp"])
        tester.finish()
    }

    @Test("Every session of a visitor sees each change live; another visitor's list is apart")
    func sharedByTheVisitorsTabs() {
        let lists = TodoLists(store: TodoStore())
        let first = SceneTester(TodoApp.entry(lists), request: Self.ada)
        let second = SceneTester(TodoApp.entry(lists), request: Self.ada)
        let stranger = SceneTester(
            TodoApp.entry(lists), request: SessionRequest(visitor: VisitorID(rawValue: "bob")))
        first.send("add", to: "todoapp", value: ["title": "From the first tab"])
        first.expect(
            "todoapp", ["todos": [Self.row(1, "From the first tab")], "left": 1, "leftWord": "item", "hasItems": true])
        second.settle(waitingForChange: true)
        second.expect(
            "todoapp", ["todos": [Self.row(1, "From the first tab")], "left": 1, "leftWord": "item", "hasItems": true])
        stranger.settle()
        #expect(stranger.document("todoapp")?["todos"] == [])
        first.finish()
        second.finish()
        stranger.finish()
    }

    @Test("Pages with no visitor cookie never share a list")
    func noVisitor() {
        let lists = TodoLists(store: TodoStore())
        let first = SceneTester(TodoApp.entry(lists))
        let second = SceneTester(TodoApp.entry(lists))
        first.send("add", to: "todoapp", value: ["title": "Mine alone"])
        first.expect(
            "todoapp", ["todos": [Self.row(1, "Mine alone")], "left": 1, "leftWord": "item", "hasItems": true])
        second.settle()
        #expect(second.document("todoapp")?["todos"] == [])
        first.finish()
        second.finish()
    }

    @Test("A title past the store's limit changes nothing, and the session goes on")
    func refusedTitle() {
        let tester = SceneTester(TodoApp.entry(TodoLists(store: TodoStore())), request: Self.ada)
        tester.send("add", to: "todoapp", value: ["title": .string(String(repeating: "x", count: 1_001))])
        tester.send("add", to: "todoapp", value: ["title": "Short"])
        tester.expect("todoapp", ["todos": [Self.row(1, "Short")], "left": 1, "leftWord": "item", "hasItems": true])
        tester.finish()
    }
}
