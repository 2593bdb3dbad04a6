import FootlightJSON

/// A value a browser event carries into a Director input (the text of an input
/// field, a checkbox state, a form's fields).
public protocol EventValue {
    /// Reads the value from the event's JSON, or throws ``EventValueError`` naming
    /// what was expected.
    init(eventJSON: JSON) throws(EventValueError)
}

/// An event carried a value of the wrong type.
public struct EventValueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure; match on it (`error.kind == .wrongShape`), it can grow.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case wrongShape
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The value is not of the JSON type (or the object's shape) the input takes.
        public static let wrongShape = Kind(.wrongShape)

        public var description: String { value.rawValue }
    }

    public let kind: Kind
    /// What the input accepts, e.g. "a string".
    public let expected: String
    /// The kind of value that arrived, e.g. "number".
    public let received: String

    /// A value of the wrong type or shape: `received` where `expected` was wanted.
    public init(expected: String, received: JSON) {
        kind = .wrongShape
        self.expected = expected
        self.received = received.kindName
    }

    public var description: String { "expected \(expected), got a \(received)" }
}

extension String: EventValue {
    public init(eventJSON: JSON) throws(EventValueError) {
        guard case .string(let text) = eventJSON else {
            throw EventValueError(expected: "a string", received: eventJSON)
        }
        self = text
    }
}

extension Bool: EventValue {
    public init(eventJSON: JSON) throws(EventValueError) {
        guard case .bool(let flag) = eventJSON else {
            throw EventValueError(expected: "a boolean", received: eventJSON)
        }
        self = flag
    }
}

extension Int: EventValue {
    public init(eventJSON: JSON) throws(EventValueError) {
        switch eventJSON {
        case .int(let number) where Int(exactly: number) != nil: self = Int(number)
        case .double(let number) where Int(exactly: number) != nil: self = Int(number)
        default: throw EventValueError(expected: "an integer", received: eventJSON)
        }
    }
}

extension Double: EventValue {
    public init(eventJSON: JSON) throws(EventValueError) {
        switch eventJSON {
        case .int(let number): self = Double(number)
        case .double(let number): self = number
        default: throw EventValueError(expected: "a number", received: eventJSON)
        }
    }
}

extension JSON: EventValue {
    public init(eventJSON: JSON) throws(EventValueError) { self = eventJSON }
}
