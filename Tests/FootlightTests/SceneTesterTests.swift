import DemoApp
import Footlight
import FootlightJSON
import FootlightTesting
import Testing

/// Scenes driven in process: exact document changes and context commands.
@Suite struct ExampleSceneTests {
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

    @Test("Sign-up: errors as you type, submit in progress, once at a time, then the outcome")
    func signup() throws {
        let tester = SceneTester({ context, _ in
            context.show(
                SignupScene(
                    accounts: SessionAccounts(
                        directory: AccountDirectory(seeded: [], cost: .minimal), clock: context.environment.clock,
                        latency: .seconds(1))
                ))
        })
        let form = try #require(tester.component("form", in: "signup"))
        #expect(tester.document(form)?["canSubmit"] == false)
        tester.send("email", to: form, value: "ada")
        tester.expect(form, ["email": "ada", "emailError": "Enter an email address like name@example.com."])
        tester.send("email", to: form, value: "ada@example.com")
        tester.expect(form, ["email": "ada@example.com", "emailError": nil])
        tester.send("password", to: form, value: "short")
        tester.expect(form, ["password": "short", "passwordError": "Use at least 8 characters (5 so far)."])
        tester.send("password", to: form, value: "long enough")
        tester.expect(form, ["password": "long enough", "passwordError": nil, "canSubmit": true])
        tester.send("submit", to: form, value: ["email": "ada@example.com"])
        tester.expect(form, ["submitting": true, "canSubmit": false])
        tester.send("submit", to: form)  // ignored while the first runs
        tester.advance(by: .milliseconds(999))
        tester.advance(by: .milliseconds(1))
        tester.expect(form, ["submitting": false, "canSubmit": true, "message": "Welcome, Ada!"])
        tester.finish()
    }

    @Test("Sign-up failure shows the service's reason as an error, until a field is edited")
    func signupFailure() throws {
        let tester = SceneTester({ context, _ in
            context.show(
                SignupScene(
                    accounts: SessionAccounts(
                        directory: AccountDirectory(cost: .minimal), clock: context.environment.clock)))
        })
        let form = try #require(tester.component("form", in: "signup"))
        // Copied from a web page: a no-break space after it, the domain in capitals.
        tester.send("email", to: form, value: "taken@EXAMPLE.com\u{00A0}")
        tester.expect(form, ["email": "taken@EXAMPLE.com\u{00A0}"])
        tester.send("password", to: form, value: "password123")
        tester.expect(form, ["password": "password123", "canSubmit": true])
        tester.send("submit", to: form)
        tester.expect(form, ["submitting": true, "canSubmit": false])
        tester.advance(by: .seconds(1))
        tester.expect(
            form,
            [
                "submitting": false, "canSubmit": true, "failed": true,
                "message": "Sign-up failed: that address already has an account.",
            ])
        tester.send("password", to: form, value: "password1234")
        tester.expect(form, ["password": "password1234", "failed": false, "message": nil])
        tester.finish()
    }

    @Test("Lots: reorder, edit a note, open a row to push its detail, close pops it")
    func lots() {
        let tester = SceneTester(LotsScene())
        tester.send("reverse", to: "lots")
        let reversed = LotsDirector.sampleRows.reversed().map(\.viewJSON)
        tester.expect("lots", ["rows": .array(reversed)])
        tester.send("open", to: "lots", value: ["id": "lot-2"])
        tester.expectCommands([.mount(template: "detail", placement: .push, url: "/lots/lot-2")])
        #expect(tester.document("detail-1")?["title"] == "Blue study")
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
        var rows = LotsDirector.sampleRows
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
        let tester = SceneTester(ExamplesApp.entry, path: "/lots/lot-4")
        #expect(tester.stageIDs == ["counter", "signup", "lots", "detail-1"])
        #expect(tester.document("detail-1")?["title"] == "Still life with pears")
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
