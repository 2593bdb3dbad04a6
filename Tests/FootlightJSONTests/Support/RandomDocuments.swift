import FootlightTesting

@testable import FootlightJSON

/// Random documents and random edits of them: nested objects, keyed and plain arrays,
/// awkward keys and strings, numbers at the edges of Int64 and Double.
struct RandomDocuments {
    var random: SeededGenerator

    static let keys = ["id", "title", "a", "b", "", "~", "/", "a/b", "m~n", "é", "e\u{301}x", "𝄞", "0", "-", "value"]
    static let strings = [
        "", "x", "Lot 7", "é", "e\u{301}", "𝄞 clef", "tab\there", "quote\"", "back\\slash", "nul\u{0}", "\u{1F}", "日本語",
        "🙂🙃",
    ]
    static let integers: [Int64] = [0, 1, -1, 42, .max, .min, .max - 1, .min + 1, 1 << 53, -(1 << 53) - 1]
    static let doubles: [Double] = [
        0.5, -0.0, 0.1, 1e300, -1e-300, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 3.141592653589793, 2.5e-8,
    ]

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &random)! }
    mutating func count(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    mutating func scalar() -> JSON {
        switch count(0...5) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2: return .int(chance(50) ? pick(Self.integers) : Int64(count(-1000...1000)))
        case 3: return .double(chance(50) ? pick(Self.doubles) : Double(count(-10000...10000)) / 8)
        default: return .string(chance(70) ? pick(Self.strings) : randomString())
        }
    }

    mutating func randomString() -> String {
        let scalars: [Unicode.Scalar] = ["a", "z", " ", "~", "/", "é", "\u{301}", "😀", "\u{0}", "\n", "\"", "中"]
        return String(String.UnicodeScalarView((0..<count(0...6)).map { _ in pick(scalars) }))
    }

    mutating func value(depth: Int) -> JSON {
        guard depth < 4, chance(55) else { return scalar() }
        switch count(0...2) {
        case 0: return object(depth: depth)
        case 1: return .array((0..<count(0...5)).map { _ in value(depth: depth + 1) })
        default: return keyedArray(depth: depth)
        }
    }

    mutating func object(depth: Int) -> JSON {
        var members = JSONObject()
        for _ in 0..<count(0...5) {
            let key = pick(Self.keys)
            // Canonically equivalent keys cannot share one object (see JSONError.duplicateKey).
            if members[key] == nil { members[key] = value(depth: depth + 1) }
        }
        return .object(members)
    }

    var nextIdentity = 0
    mutating func row(depth: Int) -> JSON {
        nextIdentity += 1
        let id: JSON = chance(50) ? .string("row-\(nextIdentity)") : .int(Int64(nextIdentity))
        var members: JSONObject = ["id": id, "title": .string(pick(Self.strings)), "bids": .int(Int64(count(0...50)))]
        if depth < 3, chance(30) { members["detail"] = value(depth: depth + 1) }
        return .object(members)
    }

    mutating func keyedArray(depth: Int) -> JSON {
        .array((0..<count(0...8)).map { _ in row(depth: depth + 1) })
    }

    /// A document shaped like a view document, the common case for diffs.
    mutating func document() -> JSON {
        var members = JSONObject()
        members["title"] = .string(pick(Self.strings))
        members["rows"] = keyedArray(depth: 1)
        members["extra"] = value(depth: 1)
        return .object(members)
    }

    /// A random edit of `value`: the pairs that diffs see in practice.
    mutating func edit(_ value: JSON, depth: Int = 0) -> JSON {
        if chance(8) { return self.value(depth: depth) }  // replaced outright
        switch value {
        case .object(var members):
            if chance(25), let key = members.keys.randomElement(using: &random) { members[key] = nil }
            if chance(25) {
                let key = pick(Self.keys)
                if members[key] == nil { members[key] = self.value(depth: depth + 1) }
            }
            for key in members.keys where chance(40) {
                members[key] = edit(members[key]!, depth: depth + 1)
            }
            if chance(10) { members.reverse() }
            return .object(members)
        case .array(var elements):
            let keyed = elements.allSatisfy { $0["id"] != nil }
            if chance(30), !elements.isEmpty { elements.remove(at: count(0...elements.count - 1)) }
            if chance(30) {
                elements.insert(
                    keyed ? row(depth: depth + 1) : self.value(depth: depth + 1), at: count(0...elements.count))
            }
            if chance(25) { elements.shuffle(using: &random) }
            if chance(10) { elements.reverse() }
            for index in elements.indices where chance(30) {
                if keyed, case .object(var members) = elements[index] {
                    members["bids"] = .int(Int64(count(0...50)))
                    if chance(30) { members["title"] = scalar() }
                    elements[index] = .object(members)
                } else {
                    elements[index] = edit(elements[index], depth: depth + 1)
                }
            }
            return .array(elements)
        default:
            return chance(60) ? scalar() : value
        }
    }
}
