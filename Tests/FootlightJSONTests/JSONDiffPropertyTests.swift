import Testing

@testable import FootlightJSON

/// `apply(diff(a, b), a) == b` over thousands of random pairs.
@Suite struct JSONDiffPropertyTests {
    static let pairCount = 3000

    /// Deterministic pairs: random edits of a view-shaped document, plus unrelated documents.
    static func pairs(seed: UInt64, count: Int) -> [(JSON, JSON)] {
        var documents = RandomDocuments(seed: seed)
        return (0..<count).map { index in
            if index % 5 == 4 { return (documents.value(depth: 0), documents.value(depth: 0)) }
            let a = documents.document()
            return (a, documents.edit(a))
        }
    }

    @Test("apply(diff(a, b), a) == b, also after a trip over the wire, never larger than a replace")
    func diffThenApply() throws {
        var operationCounts: [String: Int] = [:]
        for (index, (a, b)) in Self.pairs(seed: 20_261_121, count: Self.pairCount).enumerated() {
            let patch = JSONPatch.diff(from: a, to: b)
            for operation in patch.operations { operationCounts[operation.name, default: 0] += 1 }
            let expected = try b.serialized(.canonical)
            let direct = try patch.applied(to: a)
            #expect(Differ.identical(direct, b), "pair \(index): \(a) → \(b) by \(patch)")
            let wire = try JSONPatch(json: JSON.parse(patch.json.serializedBytes()))
            let viaWire = try wire.applied(to: JSON.parse(a.serializedBytes()))
            #expect(try viaWire.serialized(.canonical) == expected, "pair \(index)")
            let patchSize = try patch.json.serializedBytes().count
            let replaceSize = try JSONPatch([.replace(path: .root, value: b)]).json.serializedBytes().count
            #expect(patchSize <= replaceSize, "pair \(index): \(patchSize) > \(replaceSize)")
        }
        // The generator must exercise every kind of op the differ emits.
        for name in ["add", "remove", "replace", "move"] {
            #expect(
                operationCounts[name, default: 0] >= 100,
                "only \(operationCounts[name, default: 0]) \(name) ops: \(operationCounts)")
        }
    }
}
