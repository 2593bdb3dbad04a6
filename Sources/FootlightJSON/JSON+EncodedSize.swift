import CJansson

extension JSON {
    /// The exact length in bytes of this value's compact serialization (what
    /// ``serializedBytes(_:)`` writes with ``JSONWriteOptions/compact``), computed
    /// without writing it. Counting stops early once the total passes `limit`;
    /// the result is then some number greater than `limit`.
    public func compactSize(limit: Int = .max) -> Int {
        var total = 0
        accumulateSize(into: &total, limit: limit)
        return total
    }

    private func accumulateSize(into total: inout Int, limit: Int) {
        switch self {
        case .null: total += 4
        case .bool(let flag): total += flag ? 4 : 5
        case .int(let number): total += Self.decimalLength(number)
        case .double(let number): total += Self.realLength(number)
        case .string(let text): total += Self.stringLength(text)
        case .array(let elements):
            total += elements.isEmpty ? 2 : 1 + elements.count
            for element in elements where total <= limit {
                element.accumulateSize(into: &total, limit: limit)
            }
        case .object(let members):
            total += members.isEmpty ? 2 : 1 + members.count * 2
            for (key, value) in members where total <= limit {
                total += Self.stringLength(key)
                value.accumulateSize(into: &total, limit: limit)
            }
        }
    }

    static func decimalLength(_ number: Int64) -> Int {
        var length = number < 0 ? 2 : 1
        var rest = number.magnitude / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        return length
    }

    /// jansson formats reals itself (`%.17g`, a forced `.0`, a trimmed exponent),
    /// so the length is taken from jansson rather than re-derived.
    static func realLength(_ number: Double) -> Int {
        guard let real = json_real(number) else { return Int.max / 4 }
        defer { json_decref(real) }
        return json_dumpb(real, nil, 0, Int(JSON_ENCODE_ANY))
    }

    /// The quoted, escaped length of `text` as jansson writes it without
    /// `JSON_ENSURE_ASCII` or `JSON_ESCAPE_SLASH`.
    static func stringLength(_ text: String) -> Int {
        // Over the contiguous bytes: a native string's are, and walking them costs a
        // fraction of walking its UTF-8 view (the diff measures every string it emits).
        text.utf8.withContiguousStorageIfAvailable(quotedLength)
            ?? Array(text.utf8).withUnsafeBufferPointer(quotedLength)
    }

    private static func quotedLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var length = 2 + bytes.count
        for byte in bytes where !isVerbatim(byte) { length += escapedLength(byte) - 1 }
        return length
    }

    /// How many bytes jansson writes for `byte` of a string's UTF-8.
    static func escapedLength(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x08, 0x09, 0x0A, 0x0C, 0x0D: 2
        case 0..<0x20: 6
        default: 1
        }
    }
}

extension JSONPointer {
    /// The length of the pointer's string form written as a JSON string: what
    /// `JSON.stringLength(description)` gives, without making `description`.
    var compactStringLength: Int {
        var length = 2
        for token in tokens {
            length += 1
            for byte in token.utf8 {
                switch byte {
                case UInt8(ascii: "~"), UInt8(ascii: "/"): length += 2  // ~0, ~1
                default: length += JSON.escapedLength(byte)
                }
            }
        }
        return length
    }
}

extension PatchOperation {
    /// The exact compact size of this operation's JSON form, as ``JSONPatch/json`` writes it.
    var compactSize: Int {
        switch self {
        case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
            // {"op":"add","path":…,"value":…}; the names are lowercase words: nothing to escape
            return 8 + name.utf8.count + 8 + path.compactStringLength + 9 + value.compactSize() + 1
        case .remove(let path):
            return 8 + name.utf8.count + 8 + path.compactStringLength + 1
        case .move(let from, let path), .copy(let from, let path):
            return 8 + name.utf8.count + 8 + from.compactStringLength
                + 8 + path.compactStringLength + 1
        }
    }
}
