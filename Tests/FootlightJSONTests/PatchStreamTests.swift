import Testing

@testable import FootlightJSON

/// RELIABILITY.md T21: one view document mutated 10,000 times in a row (edits,
/// reorders of keyed rows), each change diffed, sent as text and applied to a client
/// replica: the replica equals the view after every patch, and no patch is larger than
/// sending the new document whole.
@Suite struct PatchStreamTests {
    @Test("10,000 successive mutations: the replica equals the view after every patch")
    func stream() throws {
        var documents = RandomDocuments(seed: 21)
        var view = documents.document()
        var replica = try JSON.parse(view.serializedBytes())
        var patchBytes = 0
        var snapshotBytes = 0
        var moves = 0
        for step in 0..<10_000 {
            let next = documents.edit(view)
            let patch = JSONPatch.diff(from: view, to: next)
            moves += patch.operations.filter { $0.name == "move" }.count
            let wire = try patch.json.serializedBytes()
            replica = try JSONPatch(json: JSON.parse(wire)).applied(to: replica)
            view = next
            let snapshot = try view.serializedBytes().count
            #expect(wire.count <= snapshot + snapshot / 20 + 64, "step \(step): \(wire.count) bytes vs \(snapshot)")
            patchBytes += wire.count
            snapshotBytes += snapshot
            guard try replica.serialized(.canonical) == view.serialized(.canonical) else {
                Issue.record("step \(step): the replica differs from the view after \(patch)")
                return
            }
        }
        #expect(moves >= 100, "the stream reordered rows (\(moves) moves)")
        #expect(patchBytes < snapshotBytes, "patches (\(patchBytes) B) beat snapshots (\(snapshotBytes) B)")
    }
}
