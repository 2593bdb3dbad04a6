#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension JSON: Equatable {
    /// JSON equality: numbers by value (`1 == 1.0`), objects by members regardless of
    /// order, arrays element by element, strings by their UTF-8 bytes (no Unicode
    /// normalisation: JSON keeps text exactly as written).
    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)):
            return Self.exactlyEqual(a, b)
        case (.string(let a), .string(let b)):
            return sameBytes(a, b)
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return sameMembers(a, b, by: ==)
        default: return false
        }
    }

    /// Whether two objects have the same keys, each with values that `same` finds
    /// alike, in any order. Members in the same order (two versions of one row) are
    /// paired by position, with no hashing; at the first key out of place, the rest are
    /// looked up by key.
    static func sameMembers(_ a: JSONObject, _ b: JSONObject, by same: (JSON, JSON) -> Bool) -> Bool {
        guard a.count == b.count else { return false }
        let (keysA, keysB, valuesA, valuesB) = (a.keys, b.keys, a.values, b.values)
        var position = 0
        while position < keysA.count, sameBytes(keysA[position], keysB[position]) {
            // Keys are unique: a key in the same place in both holds its only value.
            guard same(valuesA[position], valuesB[position]) else { return false }
            position += 1
        }
        for index in position..<keysA.count {
            guard let other = b[keysA[index]], same(valuesA[index], other) else { return false }
        }
        return true
    }

    /// Whether two strings hold the same UTF-8 bytes (no Unicode normalisation).
    package static func sameBytes(_ a: String, _ b: String) -> Bool {
        let compared = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right in
                left.count == right.count
                    && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
        return (compared ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }

    /// Whether `integer` and `double` denote the same number, without rounding either.
    private static func exactlyEqual(_ integer: Int64, _ double: Double) -> Bool {
        guard let converted = Int64(exactly: double) else { return false }
        return converted == integer
    }
}

extension JSON: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0)
        case .bool(let value):
            hasher.combine(1)
            hasher.combine(value)
        case .int(let value):
            hasher.combine(2)
            hasher.combine(value)
        case .double(let value):
            // Integral doubles hash like the equal integer, so `==` and hashing agree.
            if let integer = Int64(exactly: value) {
                hasher.combine(2)
                hasher.combine(integer)
            } else {
                hasher.combine(3)
                hasher.combine(value)
            }
        case .string(let value):
            hasher.combine(4)
            var text = value
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .array(let elements):
            hasher.combine(5)
            hasher.combine(elements)
        case .object(let members):
            // Order-independent: combine the members' hashes commutatively.
            hasher.combine(6)
            var sum = 0
            for (key, value) in members {
                var memberHasher = Hasher()
                memberHasher.combine(key)
                memberHasher.combine(value)
                sum = sum &+ memberHasher.finalize()
            }
            hasher.combine(members.count)
            hasher.combine(sum)
        }
    }
}

extension JSON {
    /// Stricter than `==`: also the same number representation (`1` is not `1.0`,
    /// `0.0` is not `-0.0`), so identical values serialise to the same text (up to
    /// member order). What a diff uses to decide that nothing changed.
    public func isIdentical(to other: JSON) -> Bool {
        Differ.identical(self, other)
    }

    /// Whether the value can be written as JSON: every number finite, nesting within
    /// ``JSONLimits/maximumDepth``.
    public var isRepresentable: Bool {
        isRepresentable(depth: 0)
    }

    /// Whether the value can be written as JSON when it sits `depth` levels deep
    /// inside another value (a slot inside a view document inside a message).
    public func isRepresentable(nestedAt depth: Int) -> Bool {
        isRepresentable(depth: depth)
    }

    private func isRepresentable(depth: Int) -> Bool {
        switch self {
        case .double(let number): return number.isFinite
        case .array(let elements):
            return depth < JSONLimits.maximumDepth
                && elements.withUnsafeBufferPointer { Self.areRepresentable($0, depth: depth + 1) }
        case .object(let members):
            return depth < JSONLimits.maximumDepth
                && members.values.withUnsafeBufferPointer { Self.areRepresentable($0, depth: depth + 1) }
        default: return true
        }
    }

    /// Whether every one of `values` is representable at `depth`. (Read in place: a
    /// row's values are not copied one by one to be looked at.)
    private static func areRepresentable(_ values: UnsafeBufferPointer<JSON>, depth: Int) -> Bool {
        for index in values.indices {
            switch values[index] {
            case .double(let number): if !number.isFinite { return false }
            case .array, .object: if !values[index].isRepresentable(depth: depth) { return false }
            default: continue
            }
        }
        return true
    }
}
