import Footlight
import FootlightJSON

/// The value of a click in a list row: `{"id": "…"}`.
public struct RowReference: EventValue, Equatable {
    public let id: String

    public init(id: String) { self.id = id }

    public init(eventJSON: JSON) throws(EventValueError) {
        guard case .string(let id)? = eventJSON["id"] else {
            throw EventValueError(expected: "an object with a string \"id\"", received: eventJSON)
        }
        self.id = id
    }
}

/// The value of an input in a list row: `{"id": "…", "value": "…"}`.
public struct RowEdit: EventValue, Equatable {
    public let id: String
    public let value: String

    public init(id: String, value: String) {
        self.id = id
        self.value = value
    }

    public init(eventJSON: JSON) throws(EventValueError) {
        guard case .string(let id)? = eventJSON["id"], case .string(let value)? = eventJSON["value"] else {
            throw EventValueError(expected: "an object with string \"id\" and \"value\"", received: eventJSON)
        }
        self.id = id
        self.value = value
    }
}
