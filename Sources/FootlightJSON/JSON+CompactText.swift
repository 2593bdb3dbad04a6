import CJansson

// The wire's hot path: a patch is mostly framing (`{"op":"replace","path":…,"value":…}`)
// around a few short scalars. Building a jansson tree for it, dumping it (jansson checks
// every container for cycles) and freeing it took about a third of the server's work
// for a click, so the framing and the values that need no escaping are written here,
// and jansson still writes every string that needs escaping, every real and every array
// or object. The bytes are the same as `serializedBytes(.compact)` writes.

extension JSON {
    /// Appends this value's compact JSON text to `text`: the same bytes as
    /// ``serializedBytes(_:)`` with ``JSONWriteOptions/compact``.
    ///
    /// Null, booleans, integers and strings with nothing to escape are written here;
    /// reals, strings with characters to escape, arrays and objects by jansson.
    ///
    /// - Throws: ``JSONError`` as ``serializedBytes(_:)`` does; `text` may then hold
    ///   part of the value.
    package func appendCompactText(to text: inout [UInt8]) throws(JSONError) {
        switch self {
        case .null: text.append(literal: "null")
        case .bool(let flag): text.append(literal: flag ? "true" : "false")
        case .int(let number): text.append(decimal: number)  // as jansson's `%lld`
        case .string(let value): try Self.appendCompactString(value, to: &text)
        case .double, .array, .object: text += try serializedBytes()
        }
    }

    /// Appends `value` as a JSON string, quoted and escaped as jansson escapes it
    /// (without `JSON_ENSURE_ASCII` or `JSON_ESCAPE_SLASH`). A string with nothing to
    /// escape is copied as it is; any other is written by jansson.
    package static func appendCompactString(_ value: String, to text: inout [UInt8]) throws(JSONError) {
        guard isVerbatim(value) else {
            text += try JSON.string(value).serializedBytes()
            return
        }
        text.append(UInt8(ascii: "\""))
        text += value.utf8
        text.append(UInt8(ascii: "\""))
    }

    /// Whether jansson writes `byte` of a string's UTF-8 as it is. It escapes `"`, `\`
    /// and the control characters below U+0020, and writes every other character (valid
    /// UTF-8, as every Swift string is) unchanged.
    static func isVerbatim(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// Whether jansson writes every byte of `string` as it is. Scans the string's bytes in
    /// place when it has them contiguous (a native string): walking `utf8`'s iterator took
    /// about 700 instructions on every patch message.
    static func isVerbatim(_ string: String) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isVerbatim) }
            ?? string.utf8.allSatisfy(isVerbatim)
    }
}

extension JSONPointer {
    /// Appends the pointer's string form as a JSON string, the same bytes as
    /// `JSON.string(description)` written compact, without making `description` when
    /// no token has a character to escape in JSON.
    func appendCompactText(to text: inout [UInt8]) throws(JSONError) {
        guard tokens.allSatisfy(JSON.isVerbatim) else {
            return try JSON.appendCompactString(description, to: &text)
        }
        text.append(UInt8(ascii: "\""))
        appendEscaped(to: &text)
        text.append(UInt8(ascii: "\""))
    }
}

extension JSONPatch {
    /// Appends the patch's compact JSON text to `text`: the same bytes as
    /// `json.serializedBytes()`, written without building the patch as ``JSON`` first.
    /// Values are written as ``JSON/appendCompactText(to:)`` writes them.
    ///
    /// - Throws: ``JSONError`` when a value cannot be written (see
    ///   ``JSON/serializedBytes(_:)``); `text` may then hold part of the patch.
    package func appendCompactText(to text: inout [UInt8]) throws(JSONError) {
        text.append(UInt8(ascii: "["))
        for (index, operation) in operations.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            try operation.appendCompactText(to: &text)
        }
        text.append(UInt8(ascii: "]"))
    }
}

extension PatchOperation {
    /// Appends the operation as ``json`` would be written: `op`, then `from` (move and
    /// copy), `path`, then `value` (add, replace and test).
    func appendCompactText(to text: inout [UInt8]) throws(JSONError) {
        switch self {
        case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
            text.append(literal: opening)
            try path.appendCompactText(to: &text)
            text.append(literal: #","value":"#)
            try value.appendCompactText(to: &text)
        case .remove(let path):
            text.append(literal: opening)
            try path.appendCompactText(to: &text)
        case .move(let from, let path), .copy(let from, let path):
            text.append(literal: opening)
            try from.appendCompactText(to: &text)
            text.append(literal: #","path":"#)
            try path.appendCompactText(to: &text)
        }
        text.append(UInt8(ascii: "}"))
    }

    /// The text up to the first pointer's value: the name, then `path` or `from`.
    private var opening: StaticString {
        switch self {
        case .add: #"{"op":"add","path":"#
        case .remove: #"{"op":"remove","path":"#
        case .replace: #"{"op":"replace","path":"#
        case .test: #"{"op":"test","path":"#
        case .move: #"{"op":"move","from":"#
        case .copy: #"{"op":"copy","from":"#
        }
    }
}
