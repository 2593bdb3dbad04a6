import CJansson

/// How ``JSON`` is written as text.
public struct JSONWriteOptions: Sendable, Hashable {
    /// Write object members sorted by key instead of in document order.
    public var sortedKeys: Bool
    /// Indent nested values by this many spaces (0 to 31); 0 writes compact text.
    public var indent: Int

    public init(sortedKeys: Bool = false, indent: Int = 0) {
        self.sortedKeys = sortedKeys
        self.indent = indent
    }

    /// Compact text in document order: what goes over the wire.
    public static let compact = JSONWriteOptions()
    /// Compact text with sorted keys: one text per value, for comparisons.
    public static let canonical = JSONWriteOptions(sortedKeys: true)

    var janssonFlags: Int {
        var flags = JSON_ENCODE_ANY
        if sortedKeys { flags |= JSON_SORT_KEYS }
        if indent > 0 {
            flags |= Int32(footlight_json_indent(Int32(min(indent, 31))))
        } else {
            flags |= JSON_COMPACT
        }
        return Int(flags)
    }
}

extension JSON {
    /// Writes this value as UTF-8 JSON text with jansson.
    ///
    /// - Throws: ``JSONError`` when a number is NaN or infinite, or nesting exceeds
    ///   ``JSONLimits/maximumDepth``.
    public func serializedBytes(_ options: JSONWriteOptions = .compact) throws(JSONError) -> [UInt8] {
        let tree = try JanssonWriter().make(self, depth: 0)
        defer { json_decref(tree) }
        let flags = options.janssonFlags
        // Most wire messages fit a small stack buffer: one dump, then one exact-size copy.
        // A longer text is measured by that dump and written again into its own array.
        let scratchSize = 2048
        var output: [UInt8] = []
        let length = withUnsafeTemporaryAllocation(of: CChar.self, capacity: scratchSize) { scratch in
            let length = json_dumpb(tree, scratch.baseAddress, scratchSize, flags)
            if length > 0, length <= scratchSize {
                output = Array(UnsafeRawBufferPointer(start: scratch.baseAddress, count: length))
            }
            return length
        }
        guard length > 0 else { throw JSONError(.unrepresentable, "jansson could not write the value") }
        if length > scratchSize {
            output = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
                count = buffer.withMemoryRebound(to: CChar.self) { json_dumpb(tree, $0.baseAddress, length, flags) }
            }
        }
        return output
    }

    /// Writes this value as JSON text. See ``serializedBytes(_:)``.
    public func serialized(_ options: JSONWriteOptions = .compact) throws(JSONError) -> String {
        String(decoding: try serializedBytes(options), as: UTF8.self)
    }
}

/// Builds a jansson tree from a ``JSON`` value. The caller owns the returned reference.
private struct JanssonWriter {
    func make(_ value: JSON, depth: Int) throws(JSONError) -> UnsafeMutablePointer<json_t> {
        switch value {
        case .null: return json_null()
        case .bool(let flag): return flag ? json_true() : json_false()
        case .int(let number): return json_integer(json_int_t(number))
        case .double(let number):
            guard let real = json_real(number) else {
                throw JSONError(.unrepresentable, "\(number) is not a finite number and cannot be written as JSON")
            }
            return real
        case .string(let text):
            return try Self.string(text)
        case .array(let elements):
            try checkDepth(depth)
            let array = json_array()!
            for element in elements {
                let child: UnsafeMutablePointer<json_t>
                do { child = try make(element, depth: depth + 1) } catch {
                    json_decref(array)
                    throw error
                }
                json_array_append_new(array, child)
            }
            return array
        case .object(let members):
            try checkDepth(depth)
            let object = json_object()!
            for (key, member) in members {
                let child: UnsafeMutablePointer<json_t>
                do { child = try make(member, depth: depth + 1) } catch {
                    json_decref(object)
                    throw error
                }
                var key = key
                let status = key.withUTF8 { bytes in
                    guard let base = bytes.baseAddress, !bytes.isEmpty else {
                        return json_object_setn_new_nocheck(object, "", 0, child)
                    }
                    return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        json_object_setn_new_nocheck(object, $0, bytes.count, child)
                    }
                }
                guard status == 0 else {
                    json_decref(object)
                    throw JSONError(.unrepresentable, "jansson refused the object key \"\(key)\"")
                }
            }
            return object
        }
    }

    private func checkDepth(_ depth: Int) throws(JSONError) {
        if depth >= JSONLimits.maximumDepth {
            throw JSONError(.tooDeep, "nesting exceeds the limit of \(JSONLimits.maximumDepth) levels")
        }
    }

    private static func string(_ text: String) throws(JSONError) -> UnsafeMutablePointer<json_t> {
        var text = text
        // Swift strings are valid UTF-8, so jansson's validation can be skipped.
        let made = text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return json_stringn_nocheck("", 0) }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                json_stringn_nocheck($0, bytes.count)
            }
        }
        guard let made else { throw JSONError(.unrepresentable, "jansson could not allocate a string") }
        return made
    }
}
