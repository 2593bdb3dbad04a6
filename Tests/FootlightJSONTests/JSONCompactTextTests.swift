import FootlightTesting
import Testing

@testable import FootlightJSON

/// The patch text written without a jansson tree is, byte for byte, what jansson writes
/// for the same patch as a tree.
@Suite struct JSONCompactTextTests {
    static func written(_ value: JSON) throws -> [UInt8] {
        var text: [UInt8] = []
        try value.appendCompactText(to: &text)
        return text
    }

    static func written(_ patch: JSONPatch) throws -> [UInt8] {
        var text: [UInt8] = []
        try patch.appendCompactText(to: &text)
        return text
    }

    @Test("Every scalar and awkward string is written as jansson writes it")
    func scalarsAndStrings() throws {
        var strings = RandomDocuments.strings + RandomDocuments.keys
        strings += [
            "\u{7F}", "\u{2028}\u{2029}", "a/b", "<script>", "\u{8}\u{C}\r", String(repeating: "é", count: 300),
        ]
        strings += (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        var values: [JSON] = [nil, true, false] + strings.map(JSON.string)
        values += RandomDocuments.integers.map(JSON.int) + RandomDocuments.doubles.map(JSON.double)
        values += [.double(1e21), .double(-1.5), .double(100), .int(-9), [], [:], [nil, ["k": "v\n"]]]
        for value in values {
            #expect(try Self.written(value) == value.serializedBytes(), "\(value)")
        }
    }

    @Test("Integers are written in decimal as jansson writes them, at the edges and in between")
    func integers() throws {
        var random = SeededGenerator(seed: 20_261_125)
        var numbers: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, 999_999_999_999_999_999, .max, .min, .min + 1]
        numbers += (0..<2000).map { _ in Int64(bitPattern: random.next()) >> Int64.random(in: 0..<64, using: &random) }
        for number in numbers {
            var text: [UInt8] = Array("x".utf8)
            text.append(decimal: number)
            #expect(text == Array("x\(number)".utf8))
            #expect(try Self.written(.int(number)) == JSON.int(number).serializedBytes(), "\(number)")
        }
    }

    @Test("Random patches of every kind of operation are written as their JSON form is, at their compact size")
    func randomPatches() throws {
        var documents = RandomDocuments(seed: 20_261_125)
        for index in 0..<2000 {
            let operations = (0..<documents.count(1...4)).map { _ in Self.operation(&documents) }
            let patch = JSONPatch(operations)
            #expect(try Self.written(patch) == patch.json.serializedBytes(), "patch \(index): \(patch)")
            for operation in operations {
                #expect(operation.compactSize == (try operation.json.serializedBytes().count), "\(operation)")
            }
        }
    }

    @Test("A value JSON cannot carry is refused as when the patch is written whole")
    func unrepresentable() {
        for value: JSON in [.double(.nan), .double(.infinity), ["a": [.double(-.infinity)]]] {
            let patch = JSONPatch([.replace(path: .root, value: value)])
            #expect(throws: JSONError.self) { try patch.json.serializedBytes() }
            #expect(throws: JSONError.self) { try Self.written(patch) }
        }
    }

    private static func operation(_ documents: inout RandomDocuments) -> PatchOperation {
        let path = pointer(&documents)
        switch documents.count(0...5) {
        case 0: return .add(path: path, value: documents.value(depth: 0))
        case 1: return .remove(path: path)
        case 2: return .move(from: pointer(&documents), path: path)
        case 3: return .copy(from: pointer(&documents), path: path)
        case 4: return .test(path: path, value: documents.scalar())
        default:
            return .replace(path: path, value: documents.chance(60) ? documents.scalar() : documents.value(depth: 0))
        }
    }

    /// Tokens with `~`, `/`, quotes, controls and non-ASCII, or none (the root).
    private static func pointer(_ documents: inout RandomDocuments) -> JSONPointer {
        JSONPointer(
            tokens: (0..<documents.count(0...3)).map { _ in
                documents.chance(70) ? documents.pick(RandomDocuments.keys) : documents.randomString()
            })
    }
}
