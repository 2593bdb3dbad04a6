import DequeModule
import Footlight
import FootlightJSON

/// Patch operations encoded once for all the sessions that send the same ones.
///
/// One change to a shared service reaches every session showing it as the same
/// operations: the same paths, and values that every session's view document shares
/// (a row made once and handed to all of them, ``JSON/sharesStorage(with:)``). Writing
/// that text again for each session was most of a patch's cost, so the text of the last
/// few distinct lists is kept and used again for a list whose every operation names the
/// same paths and holds the very same values (the same storage, not merely equal ones).
/// A list that the diff handed out from a pair it keeps (``SharedDiffs``) is the very
/// same array in every session, and is found by its address alone. Other lists holding
/// no array or object are written afresh: they are short, and cheaper to write than to
/// look up.
///
/// Thread-safe: one serves every loop of a server. It keeps at most ``capacity`` lists,
/// the most recent ones, and the values they hold.
package final class SharedOperations: Sendable {
    private struct Entry {
        let operations: [PatchOperation]
        let text: [UInt8]
    }

    private struct State {
        var entries = Deque<Entry>()
        var hits = 0
        var misses = 0
    }

    /// How many distinct lists are kept.
    package let capacity: Int
    /// The diffs whose kept lists are looked up even when they hold only scalars.
    private let diffs: SharedDiffs
    private let state = Locked(State())

    /// - Parameter diffs: where the sessions' diffs keep those of shared values (the
    ///   one ``JSONPatch/diff(from:to:options:)`` uses).
    package init(capacity: Int = 16, diffs: SharedDiffs = .shared) {
        self.capacity = max(1, capacity)
        self.diffs = diffs
    }

    /// Appends the JSON text of `operations` as an array to `text`, as ``JSONPatch/json``
    /// would be written.
    ///
    /// - Throws: ``JSONError`` when a value cannot be written (see
    ///   ``JSON/serializedBytes(_:)``); nothing is kept then, and `text` may hold part
    ///   of the list.
    package func appendText(of operations: [PatchOperation], to text: inout [UInt8]) throws(JSONError) {
        guard operations.contains(where: Self.holdsContainer) || diffs.keeps(operations) else {
            return try JSONPatch(operations).appendCompactText(to: &text)
        }
        let identity = SharedDiffs.identity(of: operations)
        let kept = state.withLock { state -> [UInt8]? in
            let entry = state.entries.last {
                SharedDiffs.identity(of: $0.operations) == identity || Self.same($0.operations, operations)
            }
            guard let entry else { return nil }
            state.hits += 1
            return entry.text
        }
        if let kept {
            text += kept
            return
        }
        var written: [UInt8] = []
        try JSONPatch(operations).appendCompactText(to: &written)
        text += written
        state.withLock { state in
            state.misses += 1
            if state.entries.count >= capacity { state.entries.removeFirst() }
            state.entries.append(Entry(operations: operations, text: written))
        }
    }

    /// Lists written from a kept text, and lists that were looked up and written afresh.
    package var statistics: (hits: Int, misses: Int) {
        state.withLock { ($0.hits, $0.misses) }
    }

    private static func holdsContainer(_ operation: PatchOperation) -> Bool {
        switch operation {
        case .add(_, let value), .replace(_, let value), .test(_, let value): value.isContainer
        case .remove, .move, .copy: false
        }
    }

    /// The same operations with the same paths, and values in the same storage (or
    /// identical scalars): lists that are written as the same text.
    private static func same(_ a: [PatchOperation], _ b: [PatchOperation]) -> Bool {
        guard a.count == b.count else { return false }
        for (left, right) in zip(a, b) {
            switch (left, right) {
            case (.add(let p, let v), .add(let q, let w)), (.replace(let p, let v), .replace(let q, let w)),
                (.test(let p, let v), .test(let q, let w)):
                guard sameText(p, q), sameValue(v, w) else { return false }
            case (.remove(let p), .remove(let q)):
                guard sameText(p, q) else { return false }
            case (.move(let f, let p), .move(let g, let q)), (.copy(let f, let p), .copy(let g, let q)):
                guard sameText(f, g), sameText(p, q) else { return false }
            default:
                return false
            }
        }
        return true
    }

    /// Pointers written as the same bytes. (`==` on their tokens is `String`'s, which
    /// takes "é" and "e" with a combining accent for the same key, where JSON does not.)
    private static func sameText(_ a: JSONPointer, _ b: JSONPointer) -> Bool {
        a.tokens.elementsEqual(b.tokens, by: JSON.sameBytes)
    }

    private static func sameValue(_ a: JSON, _ b: JSON) -> Bool {
        switch a {
        case .array, .object: a.sharesStorage(with: b)
        default: a.isIdentical(to: b)
        }
    }
}
