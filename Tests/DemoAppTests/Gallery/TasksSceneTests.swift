import Footlight
import FootlightServer
import FootlightTesting
import Gallery
import Testing

/// The gallery's task list, whose filter is its address, in process: the address follows
/// the filter, and Back, Forward and a rebuilt page's address come in as its input.
@Suite struct TasksSceneTests {
    @Test("A filter link changes the address, not the stage; Back comes in as the address; an unknown one is replaced")
    func filters() {
        let tester = SceneTester({ context, path in TasksScene.route(path, in: context) }, path: "/tasks/active")
        #expect(tester.stageIDs == ["tasks-1"])
        #expect(tester.document("tasks-1")?["shown"] == "Write the docs, Test the filters")
        tester.send("completed", to: "tasks-1")
        tester.expect("tasks-1", ["filter": "completed", "shown": "Plan the launch"])
        tester.expectCommands([.address(template: "tasks", url: "/tasks/completed", replace: false)])

        // Back: the page shows /tasks/active already; nothing is sent back but the list.
        tester.send(Stage.addressEvent, to: "tasks-1", value: "/tasks/active")
        tester.expect("tasks-1", ["filter": "active", "shown": "Write the docs, Test the filters"])
        tester.expectCommands([])

        tester.send(Stage.addressEvent, to: "tasks-1", value: "/tasks/nowhere")
        tester.expect("tasks-1", ["filter": "all", "shown": "Write the docs, Plan the launch, Test the filters"])
        tester.expectCommands([.address(template: "tasks", url: "/tasks", replace: true)])
        #expect(tester.stageIDs == ["tasks-1"], "one stage all along")
        tester.finish()
    }

    @Test("A rebuild after a restart restores the address the page showed; a deep stack's top note is rebuilt")
    func rebuild() {
        let entry: AppEntry = { context, path in TasksScene.route(path, in: context) }
        let filtered = SceneTester(
            entry, path: "/tasks",
            restoring: ClientMessage.Restore(stages: [
                .init(template: "tasks", placement: .push, url: "/tasks/completed")
            ]))
        #expect(filtered.rebuilt == ["tasks-1"])
        #expect(filtered.document("tasks-1")?["shown"] == "Plan the launch")
        filtered.finish()

        let notes = SceneTester(
            entry, path: "/notes/3",
            restoring: ClientMessage.Restore(
                stages: [
                    .init(template: "tasks", placement: .push, url: "/tasks"),
                    .init(template: "note", placement: .push, url: "/notes/1", values: ["text": "one"]),
                    .init(template: "note", placement: .push, url: "/notes/3", values: ["text": "three"]),
                ]))
        #expect(notes.rebuilt == [nil, nil, "note-1"])
        #expect(notes.document("note-1") == ["title": "Note 3", "text": "three"])
        notes.finish()
    }
}
