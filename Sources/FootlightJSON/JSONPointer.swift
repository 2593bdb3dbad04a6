/// A JSON Pointer (RFC 6901): a path of reference tokens from the document root.
///
/// ```swift
/// let pointer = try JSONPointer("/items/0/title")   // ["items", "0", "title"]
/// JSONPointer(tokens: ["a/b", "m~n"]).description  // "/a~1b/m~0n"
/// ```
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first. Empty for the whole document.
    public var tokens: [String]

    /// The pointer to the whole document (`""`).
    public static let root = JSONPointer(tokens: [])

    /// A pointer from unescaped tokens.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses the string form, unescaping `~1` to `/` and `~0` to `~`.
    ///
    /// - Throws: ``JSONPointerError`` when the text does not start with `/` (and is not
    ///   empty) or holds a `~` that is not followed by `0` or `1`.
    public init(_ text: String) throws(JSONPointerError) {
        guard !text.isEmpty else {
            self.tokens = []
            return
        }
        guard text.utf8.first == UInt8(ascii: "/") else {
            throw JSONPointerError(pointer: text, reason: "a non-empty pointer must start with \"/\"")
        }
        var tokens: [String] = []
        for raw in text.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            tokens.append(try Self.unescape(raw, in: text))
        }
        self.tokens = tokens
    }

    /// The pointer one level down.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [token])
    }

    /// The pointer to an array element one level down.
    public func appending(_ index: Int) -> JSONPointer {
        appending(String(index))
    }

    /// The pointer to the parent, or `nil` for the root.
    public var parent: JSONPointer? {
        tokens.isEmpty ? nil : JSONPointer(tokens: Array(tokens.dropLast()))
    }

    /// Whether `self` is `other` or lies inside it.
    public func hasPrefix(_ other: JSONPointer) -> Bool {
        tokens.starts(with: other.tokens)
    }

    /// The escaped string form, e.g. `/a~1b/0`.
    public var description: String {
        var text: [UInt8] = []
        appendEscaped(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the escaped string form's UTF-8 to `text`: `/` before each token, `~` as
    /// `~0` and `/` as `~1` within one (both ASCII, so the rest of the UTF-8 is copied).
    func appendEscaped(to text: inout [UInt8]) {
        for token in tokens {
            text.append(UInt8(ascii: "/"))
            for byte in token.utf8 {
                switch byte {
                case UInt8(ascii: "~"): text += "~0".utf8
                case UInt8(ascii: "/"): text += "~1".utf8
                default: text.append(byte)
                }
            }
        }
    }

    private static func unescape(_ raw: Substring.UTF8View.SubSequence, in text: String) throws(JSONPointerError)
        -> String
    {
        guard raw.contains(UInt8(ascii: "~")) else { return String(decoding: raw, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var escaping = false
        for byte in raw {
            if escaping {
                switch byte {
                case UInt8(ascii: "0"): bytes.append(UInt8(ascii: "~"))
                case UInt8(ascii: "1"): bytes.append(UInt8(ascii: "/"))
                default: throw JSONPointerError(pointer: text, reason: "\"~\" must be followed by \"0\" or \"1\"")
                }
                escaping = false
            } else if byte == UInt8(ascii: "~") {
                escaping = true
            } else {
                bytes.append(byte)
            }
        }
        if escaping { throw JSONPointerError(pointer: text, reason: "\"~\" at the end of a token") }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A JSON Pointer that is not well-formed.
public struct JSONPointerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure; match on it (`error.kind == .malformed`), it can grow.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case malformed
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// Not a pointer of RFC 6901: no leading "/", or a bad "~" escape.
        public static let malformed = Kind(.malformed)

        public var description: String { value.rawValue }
    }

    /// The class of failure (the one there is so far).
    public var kind: Kind { .malformed }
    /// The text as given.
    public let pointer: String
    /// What is wrong with it.
    public let reason: String

    public var description: String { "invalid JSON pointer \"\(pointer)\": \(reason)" }
}

extension JSONPointer {
    /// Interprets `token` as an index into an array of `count` elements (RFC 6901 §4):
    /// decimal digits without a leading zero. `-` means "past the end" and is allowed
    /// only when `allowEnd` is set (for `add`). Returns `nil` when not a valid index.
    static func arrayIndex(_ token: String, count: Int, allowEnd: Bool) -> Int? {
        if token == "-" { return allowEnd ? count : nil }
        let digits = token.utf8
        guard let first = digits.first, digits.count <= 18,
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            first != UInt8(ascii: "0") || digits.count == 1,
            let index = Int(token)
        else { return nil }
        return index < count || (allowEnd && index == count) ? index : nil
    }
}
