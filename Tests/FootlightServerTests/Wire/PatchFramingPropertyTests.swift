import FootlightJSON
import FootlightTesting
import Testing

@testable import FootlightServer

/// Random patch messages: awkward stage names and keys, values at the edges of what
/// JSON holds, every kind of operation, with and without `ack`.
struct RandomPatches {
    var random: SeededGenerator

    static let texts = ["", "s1", "counter", #"odd "stage" \ é"#, "e\u{301}", "𝄞", "tab\t", "nul\u{0}", "a/b", "m~n"]
    static let integers: [Int64] = [0, 1, -1, 42, .max, .min, 1 << 53, 9_007_199_254_740_993]
    static let doubles: [Double] = [0.5, -0.0, 0.1, 1e300, -1e-300, .greatestFiniteMagnitude, 3.141592653589793]

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &random)! }
    mutating func count(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    mutating func value(depth: Int = 0) -> JSON {
        switch count(depth < 3 ? 0...6 : 0...4) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2: return .int(chance(50) ? pick(Self.integers) : Int64(count(-1000...1000)))
        case 3: return .double(pick(Self.doubles))
        case 4: return .string(pick(Self.texts))
        case 5: return .array((0..<count(0...3)).map { _ in value(depth: depth + 1) })
        default:
            var members: JSONObject = [:]
            for _ in 0..<count(0...3) { members[pick(Self.texts)] = value(depth: depth + 1) }
            return .object(members)
        }
    }

    mutating func pointer() -> JSONPointer {
        JSONPointer(tokens: (0..<count(0...3)).map { _ in chance(30) ? String(count(0...9)) : pick(Self.texts) })
    }

    /// An operation; its value is one of `values` (held by every session) half the time.
    mutating func operation(values: [JSON]) -> PatchOperation {
        let value = chance(50) ? pick(values) : value()
        switch count(0...5) {
        case 0: return .add(path: pointer(), value: value)
        case 1: return .remove(path: pointer())
        case 2: return .replace(path: pointer(), value: value)
        case 3: return .move(from: pointer(), path: pointer())
        case 4: return .copy(from: pointer(), path: pointer())
        default: return .test(path: pointer(), value: value)
        }
    }

    mutating func seq() -> Int64 {
        chance(20) ? pick([1, Int64.max, 9_007_199_254_740_993]) : Int64(count(1...100_000))
    }
}

@Suite("The hand-framed patch is the tree encoder's text, byte for byte")
struct PatchFramingPropertyTests {
    @Test("Random patches, with and without ack, written with shared operations equal encoded()", arguments: 1...4)
    func sameBytes(seed: UInt64) throws {
        var random = RandomPatches(seed: seed)
        let shared = SharedOperations(capacity: 8)
        let values = (0..<6).map { _ in random.value() }
        var lists: [[PatchOperation]] = []
        for _ in 0..<500 {
            // Sessions sending the same list (a shared change) hit the kept text.
            let operations =
                !lists.isEmpty && random.chance(40)
                ? random.pick(lists) : (0..<random.count(0...5)).map { _ in random.operation(values: values) }
            lists.append(operations)
            let message = ServerMessage.patch(
                seq: random.seq(), stage: random.pick(RandomPatches.texts), patch: JSONPatch(operations),
                ack: random.chance(50) ? random.seq() : nil)
            let whole = try message.encoded()
            let framed = try message.encoded(sharing: shared)
            #expect(framed == whole, "seed \(seed): \(String(decoding: whole, as: UTF8.self))")
        }
        #expect(shared.statistics.hits > 0, "seed \(seed): some lists were written from the kept text")
    }
}
