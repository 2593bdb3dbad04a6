import Footlight
import FootlightJSON
import Testing

@Suite struct TypedEventValueTests {
    @Test("A row event reads the row's id: a string, or an integer as its digits; anything else is wrongShape")
    func rowEvent() throws {
        #expect(try RowEvent(eventJSON: ["id": "lot-3"]) == RowEvent(id: "lot-3"))
        #expect(try RowEvent(eventJSON: ["id": 7, "x": 1]).id == "7")
        for bad: JSON in [nil, "lot-3", [:], ["id": true], ["id": 1.5]] {
            let error = #expect(throws: EventValueError.self) { try RowEvent(eventJSON: bad) }
            #expect(error?.kind == .wrongShape)
            #expect(error?.expected == "an object with a string \"id\"")
        }
    }

    @Test("A row input reads the row's id and the control's typed value, and names the value's type when it is wrong")
    func rowInput() throws {
        #expect(try RowInput<String>(eventJSON: ["id": "a", "value": "note"]) == RowInput(id: "a", value: "note"))
        #expect(try RowInput<Bool>(eventJSON: ["id": "a", "value": true]).value)
        let noValue = #expect(throws: EventValueError.self) { try RowInput<String>(eventJSON: ["id": "a"]) }
        #expect(noValue?.description == "expected an object with a string \"id\" and a \"value\", got a object")
        let wrongValue = #expect(throws: EventValueError.self) {
            try RowInput<Bool>(eventJSON: ["id": "a", "value": "on"])
        }
        #expect(wrongValue?.description == "expected \"value\" a boolean, got a string")
    }

    @Test("A key event reads the key, the control's text and the row's id when they come")
    func keyEvent() throws {
        #expect(try KeyEvent(eventJSON: ["key": "Escape"]) == KeyEvent(key: "Escape"))
        #expect(
            try KeyEvent(eventJSON: ["key": "Enter", "value": "Buy milk", "id": "t1"])
                == KeyEvent(key: "Enter", value: "Buy milk", id: "t1"))
        for bad: JSON in [
            nil, ["value": "x"], ["key": 13], ["key": "Enter", "value": 3], ["key": "Enter", "id": [:]],
        ] {
            #expect(throws: EventValueError.self) { try KeyEvent(eventJSON: bad) }
        }
    }

    @Test("A form event holds the fields as they came, with text, checkboxes and the row's id")
    func formEvent() throws {
        let form = try FormEvent(eventJSON: ["title": "Buy milk", "urgent": true, "done": false, "id": "t1"])
        #expect(form.text("title") == "Buy milk")
        #expect(form.text("urgent") == nil)
        #expect(form.isChecked("urgent"))
        #expect(!form.isChecked("done"))
        #expect(!form.isChecked("missing"))
        #expect(form["done"] == false)
        #expect(form.id == "t1")
        #expect(try FormEvent(eventJSON: ["title": ""]).id == nil)
        let error = #expect(throws: EventValueError.self) { try FormEvent(eventJSON: "Buy milk") }
        #expect(error?.description == "expected an object of the form's fields, got a string")
    }

    @Test("Bound with on(_:send:), a typed value reaches its subject; a bad one is refused and the subject untouched")
    func bound() throws {
        let stage = Stage(name: "todos")
        let toggles = PassthroughSubject<RowInput<Bool>, Never>()
        let keys = PassthroughSubject<KeyEvent, Never>()
        var received: [String] = []
        let subscriptions = [
            toggles.sink { received.append("\($0.id)=\($0.value)") },
            keys.sink { received.append("\($0.key) \($0.value ?? "")") },
        ]
        stage.on("toggle", send: toggles)
        stage.on("keys", send: keys)
        try stage.handle(event: "toggle", value: ["id": "t1", "value": true])
        try stage.handle(event: "keys", value: ["key": "Enter", "value": "Buy"])
        let error = #expect(throws: StageEventError.self) { try stage.handle(event: "toggle", value: ["id": "t1"]) }
        #expect(error?.kind == .badValue)
        #expect(received == ["t1=true", "Enter Buy"])
        for subscription in subscriptions { subscription.cancel() }
    }
}
