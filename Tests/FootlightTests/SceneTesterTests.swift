import Footlight
import FootlightJSON
import FootlightProbes
import FootlightTesting
import Testing

/// Scenes driven in process: exact document changes and context commands.
@Suite struct ProbeSceneTests {
    @Test("Counter: each click changes the count; About presents a modal")
    func counter() {
        let tester = SceneTester(CounterScene())
        tester.send("increment", to: "counter")
        tester.expect("counter", ["count": "Count: 1"])
        tester.send("about", to: "counter")
        tester.expectCommands([.mount(template: "about", placement: .modal, url: nil)])
        #expect(tester.stageIDs == ["counter", "about-1"])
        tester.send("docs", to: "about-1")
        tester.expectCommands([.open(url: AboutScene.documentationURL)])
        tester.send("dismiss", to: "about-1")
        tester.expectCommands([.unmount(template: "about", placement: .modal)])
        tester.finish()
    }

    @Test("Not found: a stage at the link that names nothing, showing it, popped by back")
    func notFound() {
        let tester = SceneTester({ context, _ in
            context.show(CounterScene())
            context.push(NotFoundScene(path: "/lots/x"), url: "/lots/x")
        })
        #expect(tester.stageIDs == ["counter", "not-found-1"])
        #expect(tester.document("not-found-1") == ["path": "/lots/x"])
        tester.send("back", to: "not-found-1")
        tester.expectCommands([.unmount(template: "not-found", placement: .push)])
        #expect(tester.stageIDs == ["counter"])
        tester.finish()
    }

    @Test("Lots: reorder, edit a note, open a row to push its detail, close pops it")
    func lots() {
        let tester = SceneTester(LotsScene())
        tester.send("reverse", to: "lots")
        let reversed = LotsScene.sampleRows.reversed().map(\.viewJSON)
        tester.expect("lots", ["rows": .array(reversed)])
        tester.send("open", to: "lots", value: ["id": "lot-2"])
        tester.expectCommands([.mount(template: "detail", placement: .push, url: "/lots/lot-2")])
        #expect(tester.document("detail-1")?["title"] == "Lot 2")
        tester.send("close", to: "detail-1")
        tester.expectCommands([.unmount(template: "detail", placement: .push)])
        let refused = tester.send("note", to: "lots", value: 42)
        #expect(refused?.kind == .badValue)
        tester.finish()
    }

    @Test("Lots is a keyed collection: a note is one replace of its row, a reverse the fewest moves")
    func lotsRowChanges() {
        let tester = SceneTester(LotsScene())
        tester.send("note", to: "lots", value: ["id": "lot-3", "value": "frame chipped"])
        var rows = LotsScene.sampleRows
        rows[2].note = "frame chipped"
        tester.expectPatch("lots", [["op": "replace", "path": "/rows/2", "value": rows[2].viewJSON]])
        tester.expect("lots", ["rows": rows.viewJSON])
        tester.send("reverse", to: "lots")
        tester.expectPatch(
            "lots",
            [
                ["op": "move", "from": "/rows/3", "path": "/rows/4"],
                ["op": "move", "from": "/rows/2", "path": "/rows/4"],
                ["op": "move", "from": "/rows/1", "path": "/rows/4"],
                ["op": "move", "from": "/rows/0", "path": "/rows/4"],
            ])
        tester.expect("lots", ["rows": rows.reversed().viewJSON])
        tester.finish()
    }

    @Test("A deep link opens the detail the path names")
    func deepLink() {
        let tester = SceneTester(ProbeApp.entry, path: "/lots/lot-4")
        #expect(tester.stageIDs == ["counter", "lots", "detail-1"])
        #expect(tester.document("detail-1")?["title"] == "Lot 4")
        tester.finish()
    }
}

@Suite struct ContextTests {
    /// A scene whose "restart" event replaces everything with a fresh counter.
    struct RestartScene: Scene {
        func makeStage(context: Context) -> Stage {
            let restart = PassthroughSubject<Void, Never>()
            let stage = Stage(name: "restart")
            stage.keep(restart.sink { context.replaceRoot(with: CounterScene(), url: "/") })
            stage.on("restart", send: restart)
            return stage
        }
    }

    @Test("replaceRoot removes roots, stack and modals, then shows the new root")
    func replaceRoot() {
        let tester = SceneTester({ context, _ in
            context.show(RestartScene())
            context.push(LotsScene(), url: "/lots")
            context.present(AboutScene())
        })
        #expect(tester.stageIDs == ["restart", "lots-1", "about-2"])
        tester.send("restart", to: "restart")
        tester.expectCommands([
            .unmount(template: "about", placement: .modal), .unmount(template: "lots", placement: .push),
            .unmount(template: "restart", placement: .root), .mount(template: "counter", placement: .root, url: "/"),
        ])
        #expect(tester.stageIDs == ["counter"])
        tester.finish()
    }

    @Test("pop and dismiss with nothing to remove do nothing")
    func emptyPop() {
        let tester = SceneTester({ context, _ in
            context.show(CounterScene())
            context.pop()
            context.dismiss()
        })
        #expect(tester.stageIDs == ["counter"])
        tester.finish()
    }
}
