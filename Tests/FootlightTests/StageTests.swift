import Footlight
import FootlightJSON
import FootlightProbes
import FootlightTesting
import Testing

@Suite struct StageTests {
    @Test("Bound outputs fill their slots; events reach their inputs")
    func bindings() throws {
        let stage = CounterScene.makeStage()
        #expect(stage.document == ["count": "Count: 0"])
        let host = RecordingStageHost()
        stage.host = host
        try stage.handle(event: "increment", value: nil)
        #expect(stage.document == ["count": "Count: 1"])
        #expect(host.changes == 1)
    }

    @Test("Event options reach the page in the mount: pacing, commit on blur, one at a time")
    func eventOptionsInTheMount() {
        let stage = Stage(name: "form")
        stage.on("amount", send: PassthroughSubject<String, Never>(), options: .debounce(.milliseconds(250)))
        stage.on("note", send: PassthroughSubject<String, Never>(), options: .commitOnBlur)
        stage.on("open", send: PassthroughSubject<Void, Never>(), options: .oneAtATime)
        stage.on("plain", send: PassthroughSubject<Void, Never>())
        #expect(
            stage.eventOptionsJSON == [
                "amount": ["debounce": 250], "note": ["commit": "blur"], "open": ["single": true],
            ])
    }

    @Test("Key filters and the slots an event sets reach the page in the mount")
    func keysAndSetsInTheMount() {
        let stage = Stage(name: "todos")
        stage.on("editKey", send: PassthroughSubject<JSON, Never>(), options: .keys(["Enter", "Escape"]))
        stage.on("add", send: PassthroughSubject<JSON, Never>(), options: EventOptions(sets: ["newTitle": "", "n": 0]))
        #expect(
            stage.eventOptionsJSON == [
                "add": ["set": ["n": 0, "newTitle": ""]], "editKey": ["keys": ["Enter", "Escape"]],
            ])
    }

    @Test("An event sets its declared slots before its input hears of it; what the Director binds then follows")
    func eventSetsSlots() throws {
        let typed = CurrentValueSubject<String, Never>("")
        let add = PassthroughSubject<JSON, Never>()
        var documentWhenAdded: [JSON] = []
        let stage = Stage(name: "todos")
        stage.bind(typed, to: "newTitle")
        stage.on("title", send: typed)
        stage.on("add", send: add, options: EventOptions(sets: ["newTitle": ""]))
        stage.keep(add.sink { _ in documentWhenAdded.append(stage.document) })
        let host = RecordingStageHost()
        stage.host = host
        try stage.handle(event: "title", value: "Milk")
        #expect(stage.document == ["newTitle": "Milk"])
        try stage.handle(event: "add", value: ["title": "Milk"])
        #expect(documentWhenAdded == [["newTitle": ""]], "set before the input hears of the event")
        #expect(stage.document == ["newTitle": ""])
        // The Director's own value afterwards wins: it keeps the title (a refused entry, say).
        stage.keep(add.sink { _ in typed.send("Milk!") })
        try stage.handle(event: "add", value: ["title": "Milk"])
        #expect(stage.document == ["newTitle": "Milk!"])
    }

    @Test("An unknown event is refused with the stage's name and the events it accepts")
    func unknownEvent() {
        let stage = CounterScene.makeStage()
        let error = #expect(throws: StageEventError.self) { try stage.handle(event: "decrement", value: nil) }
        #expect(error?.kind == .unknownEvent)
        #expect(error?.message == #"stage "counter" has no event "decrement" (it accepts "increment")"#)
    }

    @Test("A value of the wrong type is refused and the input is not touched")
    func wrongValueType() throws {
        let text = PassthroughSubject<String, Never>()
        let stage = Stage(name: "form")
        stage.bind(text.map { "Hello, \($0)" }, to: "greeting")
        stage.on("name", send: text)
        try stage.handle(event: "name", value: "Ada")
        #expect(stage.document == ["greeting": "Hello, Ada"])
        let error = #expect(throws: StageEventError.self) { try stage.handle(event: "name", value: 42) }
        #expect(error?.kind == .badValue)
        #expect(error?.message == #"event "name" of stage "form": expected a string, got a number"#)
        #expect(stage.document == ["greeting": "Hello, Ada"])
    }

    @Test("An action that throws is a Director failure; one given a wrong value type is not called")
    func throwingAction() throws {
        struct Broken: Error, CustomStringConvertible {
            var description: String { "no stock left" }
        }
        var taken: [Int] = []
        let stage = Stage(name: "shop")
        stage.on("take") { (count: Int) throws in
            guard count > 0 else { throw Broken() }
            taken.append(count)
        }
        try stage.handle(event: "take", value: 2)
        let badValue = #expect(throws: StageEventError.self) { try stage.handle(event: "take", value: "two") }
        #expect(badValue?.kind == .badValue)
        let failure = #expect(throws: StageEventError.self) { try stage.handle(event: "take", value: 0) }
        #expect(failure?.kind == .directorFailed)
        #expect(failure?.message == #"the Director failed on event "take" of stage "shop": no stock left"#)
        #expect(taken == [2])
    }

    @Test("Optional and non-finite values become null; an unchanged value is no change")
    func values() {
        let subject = PassthroughSubject<Double?, Never>()
        let stage = Stage(name: "s")
        stage.bind(subject, to: "x")
        let host = RecordingStageHost()
        stage.host = host
        subject.send(nil)
        subject.send(.nan)
        subject.send(2.5)
        subject.send(2.5)
        #expect(stage.document == ["x": 2.5])
        #expect(host.changes == 2)
    }
}

@Suite struct StageValueTests {
    @Test("The same array again is no change; an equal one built apart is left to the flush's diff")
    func containers() {
        let subject = PassthroughSubject<JSON, Never>()
        let stage = Stage(name: "list")
        stage.bind(subject, to: "rows")
        let host = RecordingStageHost()
        stage.host = host
        var changes: Int { host.changes }
        let rows: JSON = [["id": "a", "title": "Dawn"]]
        subject.send(rows)
        subject.send(rows)
        #expect(changes == 1)
        let before = stage.document
        subject.send([["id": "a", "title": "Dawn"]])
        #expect(changes == 2)
        #expect(JSONPatch.diff(from: before, to: stage.document).isEmpty)
        subject.send([["id": "a", "title": "Dusk"]])
        #expect(changes == 3)
        #expect(stage.document == ["rows": [["id": "a", "title": "Dusk"]]])
    }

    @Test("A list rebuilt equal sends the page nothing")
    func rebuiltListSendsNothing() {
        let subject = CurrentValueSubject<JSON, Never>([["id": "a", "title": "Dawn"]])
        nonisolated(unsafe) let rows = subject.eraseToAnyPublisher()
        let tester = SceneTester({ context, _ in context.show(ListScene(rows: rows)) })
        subject.send([["id": "a", "title": "Dawn"]])
        tester.settle()
        tester.expectPatch("list", [])
        subject.send([["id": "a", "title": "Dusk"]])
        tester.settle()
        tester.expectPatch("list", [["op": "replace", "path": "/rows/0/title", "value": "Dusk"]])
        tester.expect("list", ["rows": [["id": "a", "title": "Dusk"]]])
        tester.finish()
    }

    private struct ListScene: Scene {
        let rows: AnyPublisher<JSON, Never>

        func makeStage(context: Context) -> Stage {
            let stage = Stage(name: "list")
            stage.bind(rows, to: "rows")
            return stage
        }
    }

    @Test("A value JSON cannot hold is refused with the slot's name; the slot keeps its value")
    func unrepresentable() {
        let subject = PassthroughSubject<JSON, Never>()
        let stage = Stage(name: "chart")
        stage.bind(subject, to: "points")
        let host = RecordingStageHost()
        stage.host = host
        var failures: [String] { host.failures }
        subject.send([1.5])
        subject.send([.double(.nan)])
        subject.send([["label": "a", "y": .double(.infinity)]])
        // Within the depth limit as a value, past it inside a message (4 levels deep).
        var deep: JSON = 1
        for _ in 0..<(JSONLimits.maximumDepth - 3) { deep = [deep] }
        #expect(deep.isRepresentable)
        subject.send(deep)
        #expect(stage.document == ["points": [1.5]])
        #expect(failures.count == 3)
        #expect(failures.first?.contains(#"slot "points" of stage "chart""#) == true)
    }
}
