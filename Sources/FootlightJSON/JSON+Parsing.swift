import CJansson

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How JSON text is read.
public struct JSONReadOptions: Sendable, Hashable {
    /// The deepest nesting of arrays and objects accepted.
    public var maximumDepth: Int
    /// Reject an object that names a key twice (on by default: the wire protocol
    /// treats it as malformed). When off, the last occurrence wins, as in jansson.
    public var rejectsDuplicateKeys: Bool

    public init(maximumDepth: Int = JSONLimits.maximumDepth, rejectsDuplicateKeys: Bool = true) {
        self.maximumDepth = maximumDepth
        self.rejectsDuplicateKeys = rejectsDuplicateKeys
    }

    var janssonFlags: Int {
        var flags = JSON_DECODE_ANY | JSON_ALLOW_NUL
        if rejectsDuplicateKeys { flags |= JSON_REJECT_DUPLICATES }
        return Int(flags)
    }
}

extension JSON {
    /// Parses JSON text with jansson.
    ///
    /// The whole input must be one JSON value (any kind, not only objects), with
    /// nothing but whitespace after it. `\u0000` is allowed inside strings; duplicate
    /// keys and nesting deeper than the limit are rejected unless `options` say otherwise.
    ///
    /// - Throws: ``JSONError`` naming the line, column and byte of the failure.
    public static func parse(_ text: String, options: JSONReadOptions = JSONReadOptions()) throws(JSONError) -> JSON {
        var text = text
        let result: Result<JSON, JSONError> = text.withUTF8 { buffer in
            Result { () throws(JSONError) -> JSON in
                try parse(UnsafeRawBufferPointer(buffer), options: options)
            }
        }
        return try result.get()
    }

    /// Parses JSON from UTF-8 bytes. See ``parse(_:options:)-(String,_)``.
    public static func parse(_ bytes: [UInt8], options: JSONReadOptions = JSONReadOptions()) throws(JSONError) -> JSON {
        let result: Result<JSON, JSONError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONError) -> JSON in
                try parse(buffer, options: options)
            }
        }
        return try result.get()
    }

    /// Parses JSON from a buffer of UTF-8 bytes, reading exactly `bytes.count` bytes.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer,
        options: JSONReadOptions = JSONReadOptions()
    ) throws(JSONError) -> JSON {
        // A raw NUL byte is never valid JSON (inside strings it must be escaped), but
        // jansson's reader stops at one as if the input ended there: "123\0" would
        // parse as 123. Reject it here so the whole buffer is always what is judged.
        // (memchr: the generic `firstIndex(of:)` costs about 400 instructions on an event.)
        if let base = bytes.baseAddress, let nul = memchr(base, 0, bytes.count) {
            throw JSONError(.syntax, "NUL byte in the input", position: base.distance(to: UnsafeRawPointer(nul)))
        }
        var error = json_error_t()
        let flags = options.janssonFlags
        // An empty buffer may have no base address; jansson still needs a valid pointer.
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        let root: UnsafeMutablePointer<json_t>? =
            if let base {
                json_loadb(base, bytes.count, flags, &error)
            } else {
                "".withCString { json_loadb($0, 0, flags, &error) }
            }
        guard let root else { throw JSONError(janssonError: error) }
        defer { json_decref(root) }
        return try JanssonReader(maximumDepth: options.maximumDepth).read(root, depth: 0)
    }
}

extension JSONError {
    /// Wraps jansson's error record, once, at the boundary.
    init(janssonError error: json_error_t) {
        var error = error
        let text = withUnsafeBytes(of: &error.text) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        let known = error.line >= 0
        self.init(
            .syntax, text,
            line: known ? Int(error.line) : nil,
            column: known ? Int(error.column) : nil,
            position: known ? Int(error.position) : nil)
    }
}

/// Turns a jansson tree into ``JSON`` values.
private struct JanssonReader {
    let maximumDepth: Int

    func read(_ value: UnsafeMutablePointer<json_t>, depth: Int) throws(JSONError) -> JSON {
        switch value.pointee.type {
        case JSON_NULL: return .null
        case JSON_TRUE: return .bool(true)
        case JSON_FALSE: return .bool(false)
        case JSON_INTEGER: return .int(Int64(json_integer_value(value)))
        case JSON_REAL: return .double(json_real_value(value))
        case JSON_STRING:
            return .string(Self.string(json_string_value(value), count: json_string_length(value)))
        case JSON_ARRAY:
            try checkDepth(depth)
            let count = json_array_size(value)
            var elements: [JSON] = []
            elements.reserveCapacity(count)
            for index in 0..<count {
                elements.append(try read(json_array_get(value, index), depth: depth + 1))
            }
            return .array(elements)
        case JSON_OBJECT:
            try checkDepth(depth)
            var members = JSONObject(minimumCapacity: json_object_size(value))
            var iterator = json_object_iter(value)
            while let current = iterator {
                let key = Self.string(json_object_iter_key(current), count: json_object_iter_key_len(current))
                let member = try read(json_object_iter_value(current), depth: depth + 1)
                // jansson compares keys byte for byte; Swift's String compares canonical
                // equivalents as equal. Refuse rather than silently drop one of them.
                guard members.updateValue(member, forKey: key) == nil else {
                    throw JSONError(
                        .duplicateKey, "object has two keys equal to \"\(key)\" under Unicode canonical equivalence")
                }
                iterator = json_object_iter_next(value, current)
            }
            return .object(members)
        default:
            throw JSONError(.syntax, "jansson returned a value of unknown type \(value.pointee.type.rawValue)")
        }
    }

    private func checkDepth(_ depth: Int) throws(JSONError) {
        if depth >= maximumDepth {
            throw JSONError(.tooDeep, "nesting exceeds the limit of \(maximumDepth) levels")
        }
    }

    private static func string(_ pointer: UnsafePointer<CChar>?, count: Int) -> String {
        guard let pointer else { return "" }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }
}
