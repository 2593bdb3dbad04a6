/// Why JSON text could not be read or written.
///
/// Match on the static members (`error.kind == .syntax`); the message is readable
/// as is and carries jansson's line, column and byte position where it has them.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: Sendable, Hashable {
            case syntax, tooDeep, unrepresentable, duplicateKey
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The text is not well-formed JSON (jansson rejected it).
        public static let syntax = Kind(.syntax)
        /// The value nests deeper than the allowed depth.
        public static let tooDeep = Kind(.tooDeep)
        /// The value cannot be written as JSON (NaN, infinity).
        public static let unrepresentable = Kind(.unrepresentable)
        /// An object holds the same key twice (rejected to avoid silently dropping one).
        public static let duplicateKey = Kind(.duplicateKey)

        public var description: String {
            switch value {
            case .syntax: "syntax"
            case .tooDeep: "tooDeep"
            case .unrepresentable: "unrepresentable"
            case .duplicateKey: "duplicateKey"
            }
        }
    }

    /// The class of failure.
    public let kind: Kind
    /// A readable explanation.
    public let message: String
    /// 1-based line of the failure in the input text, when known.
    public let line: Int?
    /// 1-based column of the failure in the input text, when known.
    public let column: Int?
    /// 0-based byte offset of the failure in the input text, when known.
    public let position: Int?

    init(_ kind: Kind, _ message: String, line: Int? = nil, column: Int? = nil, position: Int? = nil) {
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
        self.position = position
    }

    public var description: String {
        var text = "JSON \(kind) error: \(message)"
        switch (line, column, position) {
        case (let line?, let column?, let position?): text += " (line \(line), column \(column), byte \(position))"
        case (let line?, let column?, nil): text += " (line \(line), column \(column))"
        case (_, _, let position?): text += " (byte \(position))"
        default: break
        }
        return text
    }
}
