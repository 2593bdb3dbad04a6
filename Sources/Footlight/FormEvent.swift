import FootlightJSON

/// The value of a `data-on-submit` event: the form's named fields (`{"title": "Buy
/// milk", "urgent": true}`: text as strings, checkboxes as booleans, the checked
/// radio's value), plus the row's `id` when the form sits in a list row.
///
/// ```swift
/// stage.on("add", send: add)  // add: PassthroughSubject<FormEvent, Never>
/// add.map { $0.text("title") ?? "" }
/// ```
public struct FormEvent: EventValue, Equatable, Hashable, Sendable {
    /// Every member of the event's object, by name, in the form's order (`id` too, in a row).
    public let fields: JSONObject

    /// A form whose fields are `fields`.
    public init(fields: JSONObject) { self.fields = fields }

    public init(eventJSON: JSON) throws(EventValueError) {
        guard let fields = eventJSON.objectValue else {
            throw EventValueError(expected: "an object of the form's fields", received: eventJSON)
        }
        self.fields = fields
    }

    /// The field `name` as it came.
    public subscript(name: String) -> JSON? { fields[name] }

    /// The text of field `name`; nil when the form has no such field or it is not text.
    public func text(_ name: String) -> String? { fields[name]?.stringValue }

    /// Whether the checkbox `name` is checked: false when the form has no such field.
    public func isChecked(_ name: String) -> Bool { fields[name] == .bool(true) }

    /// The id of the list row the form sits in, or nil (a form field named `id` reads here too).
    public var id: String? { try? RowEvent.rowID(in: .object(fields), expected: "a row id") }
}
