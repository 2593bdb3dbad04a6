import FootlightJSON

/// What must hold for JSON Patch apply and diff on any input.
///
/// An input is two JSON texts separated by a NUL byte (which JSON text never
/// contains): a document, then a second value read both as a patch and as a target
/// document. Applying throws a ``PatchError`` and leaves the document unchanged, or
/// succeeds; for each target (the second value, and the result of a successful
/// apply), `diff(document, target)` applied to the document gives the target exactly
/// and is never larger than one `replace` of the whole document; diffed twice more, as
/// the same pair met in other documents is (its diffs inside the document noted, then
/// kept and handed out: ``SharedDiffs``), it gives the same operations.
/// A violation stops the fuzzer with the input saved as a crash.
///
/// Each input has kept diffs of its own, so that an input's outcome never depends on
/// the inputs before it (and nothing outlives the input for the leak checker).
enum JSONPatchProperties {
    /// Targets larger than this are skipped: a few `copy` operations can double a
    /// document each time (cheaply, by sharing storage), and walking it would only
    /// time out.
    static let maximumTargetSize = 1 << 20

    static func check(_ bytes: UnsafeRawBufferPointer) {
        let separator = bytes.firstIndex(of: 0) ?? bytes.count
        guard separator < bytes.count,
            let document = try? JSON.parse(UnsafeRawBufferPointer(rebasing: bytes[..<separator])),
            let second = try? JSON.parse(UnsafeRawBufferPointer(rebasing: bytes[(separator + 1)...]))
        else { return }
        let sharing = SharedDiffs()
        checkDiff(from: document, to: second, sharing: sharing)
        guard let patch = try? JSONPatch(json: second) else { return }
        checkCoding(patch)
        var applied = document
        do {
            try patch.apply(to: &applied)
        } catch {
            require(applied.isIdentical(to: document), "a failed apply changed the document: \(error)")
            return
        }
        checkDiff(from: document, to: applied, sharing: sharing)
    }

    /// The patch reads back from its own JSON form unchanged.
    private static func checkCoding(_ patch: JSONPatch) {
        do {
            let again = try JSONPatch(json: patch.json)
            require(again == patch, "a patch read from its own JSON form differs")
        } catch {
            fatalError("a patch could not be read from its own JSON form: \(error)")
        }
    }

    private static func checkDiff(from source: JSON, to target: JSON, sharing: SharedDiffs) {
        guard target.compactSize(limit: maximumTargetSize) <= maximumTargetSize else { return }
        let patch = JSONPatch.diff(from: source, to: target, options: DiffOptions(), sharing: sharing)
        for _ in 0..<2 {
            let again = JSONPatch.diff(from: source, to: target, options: DiffOptions(), sharing: sharing)
            require(again == patch, "the same pair diffed again through kept diffs gave other operations")
        }
        let result: JSON
        do {
            result = try patch.applied(to: source)
        } catch {
            fatalError("a diff does not apply to its own source: \(error)")
        }
        require(result.isIdentical(to: target), "applying a diff did not give its target")
        let replace = JSONPatch([.replace(path: .root, value: target)])
        require(
            patch.json.compactSize() <= replace.json.compactSize(),
            "a diff of \(patch.json.compactSize()) bytes is larger than a replace of \(replace.json.compactSize())")
    }

    private static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError(message()) }
    }
}
