import FootlightJSON
import Testing

@testable import FootlightServer

@Suite("Patch operations written once for the sessions that send the same ones")
struct SharedOperationsTests {
    static let row: JSON = ["id": "lot-3", "title": "Harbour at dusk", "bid": 1250, "tags": ["oil", "framed"]]

    static func pointer(_ text: String) -> JSONPointer {
        try! JSONPointer(text)
    }

    static let messages: [ServerMessage] = [
        .patch(seq: 7, stage: "s1", patch: JSONPatch([.replace(path: pointer("/rows/3"), value: row)]), ack: nil),
        .patch(seq: 8, stage: "s1", patch: JSONPatch([.replace(path: pointer("/rows/3"), value: row)]), ack: 12),
        .patch(
            seq: 9_007_199_254_740_993, stage: #"odd "stage" \ é"#,
            patch: JSONPatch([
                .add(path: pointer("/rows/-"), value: row), .remove(path: pointer("/rows/0")),
                .move(from: pointer("/rows/1"), path: pointer("/rows/0")),
                .replace(path: pointer("/count~1total"), value: 3),
            ]),
            ack: nil),
        .patch(seq: 10, stage: "s2", patch: JSONPatch([.replace(path: pointer("/count"), value: "Count: 4")]), ack: 2),
        .ack(number: 5),
        .unmount(seq: 11, stage: "s2"),
    ]

    @Test("A message written with shared operations is the same text as one written whole, kept or not")
    func sameText() throws {
        let shared = SharedOperations()
        for message in Self.messages {
            let whole = try message.encoded()
            #expect(try message.encoded(sharing: shared) == whole)
            #expect(try message.encoded(sharing: shared) == whole, "written again from the kept text")
        }
        #expect(shared.statistics.hits > 0)
    }

    @Test("Only the same paths with values in the same storage are taken from the kept text")
    func matching() throws {
        let shared = SharedOperations()
        let path = Self.pointer("/rows/3")
        let first = try shared.text(of: [.replace(path: path, value: Self.row)])
        #expect(shared.statistics == (hits: 0, misses: 1))
        #expect(try shared.text(of: [.replace(path: path, value: Self.row)]) == first)
        #expect(shared.statistics == (hits: 1, misses: 1))
        // Another path, another operation, an equal row built apart, a changed row.
        let apart = try JSON.parse(Self.row.serialized())
        #expect(!apart.sharesStorage(with: Self.row))
        #expect(try shared.text(of: [.replace(path: Self.pointer("/rows/4"), value: Self.row)]) != first)
        #expect(try shared.text(of: [.add(path: path, value: Self.row)]) != first)
        #expect(try shared.text(of: [.replace(path: path, value: apart)]) == first, "equal text, written afresh")
        let changed: JSON = ["id": "lot-3", "title": "Harbour at dusk", "bid": 1300, "tags": ["oil", "framed"]]
        let changedText = try shared.text(of: [.replace(path: path, value: changed)])
        #expect(String(decoding: changedText, as: UTF8.self).contains("1300"))
        #expect(shared.statistics == (hits: 1, misses: 5))
        // Keys Swift's String takes for equal and JSON does not: "é" and "e" + U+0301.
        let composed = try shared.text(of: [.replace(path: JSONPointer(tokens: ["caf\u{E9}"]), value: Self.row)])
        let decomposed = try shared.text(of: [.replace(path: JSONPointer(tokens: ["cafe\u{301}"]), value: Self.row)])
        #expect(composed != decomposed, "each path written as it is")
    }

    @Test("Operations holding no array or object are written afresh, and never kept")
    func scalarsNotKept() throws {
        let shared = SharedOperations()
        let operations: [PatchOperation] = [.replace(path: Self.pointer("/count"), value: 4)]
        #expect(try shared.text(of: operations) == JSONPatch(operations).json.serializedBytes())
        _ = try shared.text(of: operations)
        #expect(shared.statistics == (hits: 0, misses: 0))
    }

    @Test("Scalar operations the diff hands out to every session from a kept pair are written once")
    func keptDiffs() throws {
        let diffs = SharedDiffs()
        let shared = SharedOperations(diffs: diffs)
        let (old, new): (JSON, JSON) = (["id": "lot-3", "bid": 1200], ["id": "lot-3", "bid": 1250])
        var texts: [[UInt8]] = []
        for session in 0..<4 {
            let (a, b): (JSON, JSON) = (
                ["session": .int(Int64(session)), "lot": old], ["session": .int(Int64(session)), "lot": new]
            )
            let patch = JSONPatch.diff(from: a, to: b, options: DiffOptions(), sharing: diffs)
            #expect(diffs.keeps(patch.operations) == (session >= 1), "kept at the second session's diff")
            texts.append(try shared.text(of: patch.operations))
        }
        #expect(Set(texts) == [Array(#"[{"op":"replace","path":"/lot/bid","value":1250}]"#.utf8)])
        #expect(shared.statistics == (hits: 2, misses: 1), "the first session's list was written afresh, untracked")
    }

    @Test("It keeps the most recent lists, at most its capacity")
    func bounded() throws {
        let shared = SharedOperations(capacity: 4)
        let rows: [JSON] = (0..<6).map { ["id": .string("r\($0)")] }
        for row in rows { _ = try shared.text(of: [.replace(path: Self.pointer("/rows/0"), value: row)]) }
        _ = try shared.text(of: [.replace(path: Self.pointer("/rows/0"), value: rows[5])])
        #expect(shared.statistics == (hits: 1, misses: 6))
        _ = try shared.text(of: [.replace(path: Self.pointer("/rows/0"), value: rows[0])])
        #expect(shared.statistics == (hits: 1, misses: 7), "the oldest list was let go")
    }

    @Test("A value JSON cannot hold is refused, as when written whole, and not kept")
    func unrepresentable() {
        let shared = SharedOperations()
        let operations: [PatchOperation] = [.replace(path: Self.pointer("/rows/0"), value: ["x": .double(.nan)])]
        #expect(throws: JSONError.self) { try shared.text(of: operations) }
        #expect(throws: JSONError.self) { try shared.text(of: operations) }
        #expect(shared.statistics.hits == 0)
    }
}

extension SharedOperations {
    /// The text ``appendText(of:to:)`` writes for `operations` alone.
    fileprivate func text(of operations: [PatchOperation]) throws(JSONError) -> [UInt8] {
        var text: [UInt8] = []
        try appendText(of: operations, to: &text)
        return text
    }
}
