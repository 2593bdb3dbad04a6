import FootlightJSON

/// The value of an event from inside a list row that carries nothing else: a click
/// (`{"id": "lot-3"}`), a JavaScript hook's send without a value, a key filtered to
/// one key. Bind it as any value: `stage.on("open", send: open)` with `open` a
/// `PassthroughSubject<RowEvent, Never>`.
public struct RowEvent: EventValue, Equatable, Hashable, Sendable {
    /// The row's `id`, as its document has it (an integer id reads as its digits).
    public let id: String

    /// An event of the row `id`.
    public init(id: String) { self.id = id }

    public init(eventJSON: JSON) throws(EventValueError) {
        id = try Self.rowID(in: eventJSON, expected: "an object with a string \"id\"")
    }

    /// The `id` member of a row event's object; throws naming `expected` when there is none.
    static func rowID(in json: JSON, expected: String) throws(EventValueError) -> String {
        switch json["id"] {
        case .string(let id)?: return id
        case .int(let id)?: return String(id)
        default: throw EventValueError(expected: expected, received: json)
        }
    }
}

/// The value of a control's event inside a list row: `{"id": "lot-3", "value": "…"}`
/// for `data-on-input` and `data-on-change` (the text, or `checked` for a checkbox),
/// or a JavaScript hook's send of a value that is not an object.
/// `RowInput<String>` for a text field, `RowInput<Bool>` for a checkbox.
public struct RowInput<Value: EventValue>: EventValue {
    /// The row's `id` (see ``RowEvent/id``).
    public let id: String
    /// The control's value.
    public let value: Value

    /// The value `value` of the row `id`.
    public init(id: String, value: Value) {
        self.id = id
        self.value = value
    }

    public init(eventJSON: JSON) throws(EventValueError) {
        let expected = "an object with a string \"id\" and a \"value\""
        id = try RowEvent.rowID(in: eventJSON, expected: expected)
        guard let member = eventJSON["value"] else { throw EventValueError(expected: expected, received: eventJSON) }
        do throws(EventValueError) {
            value = try Value(eventJSON: member)
        } catch {
            throw EventValueError(expected: "\"value\" \(error.expected)", received: member)
        }
    }
}

extension RowInput: Equatable where Value: Equatable {}
extension RowInput: Hashable where Value: Hashable {}
extension RowInput: Sendable where Value: Sendable {}
