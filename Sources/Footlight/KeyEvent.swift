import FootlightJSON

/// The value of a `data-on-keydown` event: `{"key": "Enter"}` (the DOM's `event.key`),
/// with the control's text when it has one (`{"key": "Enter", "value": "Buy milk"}`,
/// as a keydown filtered to some keys sends it) and the row's `id` inside a list row.
public struct KeyEvent: EventValue, Equatable, Hashable, Sendable {
    /// The key, as the DOM names it: `"Enter"`, `"Escape"`, `"a"`.
    public let key: String
    /// The text of the control the key went down in, when the event carries it.
    public let value: String?
    /// The id of the list row the control sits in, when it sits in one.
    public let id: String?

    /// A press of `key`, with the control's `value` and its row's `id` when there are.
    public init(key: String, value: String? = nil, id: String? = nil) {
        self.key = key
        self.value = value
        self.id = id
    }

    public init(eventJSON: JSON) throws(EventValueError) {
        let expected = "an object with a string \"key\" (and a string \"value\" and an \"id\", if any)"
        guard case .string(let key)? = eventJSON["key"] else {
            throw EventValueError(expected: expected, received: eventJSON)
        }
        self.key = key
        switch eventJSON["value"] {
        case nil, .null?: value = nil
        case .string(let text)?: value = text
        default: throw EventValueError(expected: expected, received: eventJSON)
        }
        id = eventJSON["id"] == nil ? nil : try RowEvent.rowID(in: eventJSON, expected: expected)
    }
}
