import OrderedCollections

/// The members of a JSON object, in document order.
public typealias JSONObject = OrderedDictionary<String, JSON>

/// A JSON value.
///
/// Integers that fit in 64 bits are kept exactly as ``int(_:)``; other numbers are
/// ``double(_:)``. Objects keep their members in document order, but two objects are
/// equal when they hold the same members in any order, as RFC 8259 and RFC 6902's
/// `test` operation define it. Numbers compare by value, so `.int(1) == .double(1)`.
///
/// ```swift
/// let document: JSON = ["count": 1, "items": [["id": "a", "title": "Lot A"]]]
/// let text = try document.serialized()          // {"count":1,"items":[...]}
/// let again = try JSON.parse(text)
/// ```
public enum JSON: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

extension JSON {
    /// The name of this value's kind, as used in error messages ("object", "array", …).
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The members when this is an object, otherwise `nil`.
    public var objectValue: JSONObject? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements when this is an array, otherwise `nil`.
    public var arrayValue: [JSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The text when this is a string, otherwise `nil`.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The member named `key` when this is an object that has it, otherwise `nil`.
    public subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// True for arrays and objects.
    public var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(JSONObject(elements, uniquingKeysWith: { _, last in last }))
    }
}
