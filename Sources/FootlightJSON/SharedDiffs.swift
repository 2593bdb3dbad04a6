/// Diffs between arrays and objects that many documents share, derived once for all.
///
/// A change to a shared service reaches every session showing it as the same two values
/// at the same place in each session's document: the old row and the new one, each
/// made once and handed to every session (``JSON/sharesStorage(with:)``). The diff
/// between them is the same for all of them, so ``JSONPatch/diff(from:to:options:)``
/// keeps the operations of a pair it meets a second time, and hands them out again
/// instead of comparing the two values member by member for every session. The
/// operations are the very same array, so those who encode them can tell that they
/// are the same (the server's shared patch text).
///
/// A pair is kept by its two values' storage (``StorageIdentity``), the path it sits
/// at and the diff's identity key: the operations a diff emits for a value depend on
/// nothing else. An entry keeps both values alive, so no other value can take their
/// buffers' addresses while it is kept: the same addresses mean the same values.
///
/// Only pairs inside a document are looked up: a document's root is its own. A pair
/// seen once is only noted (its values held, so that their addresses stay theirs); a
/// pair seen again is kept. The pairs in one session's own document are never met
/// again, and noting one costs no allocation. Thread-safe; at most ``capacity`` pairs
/// are kept, the most recent.
package final class SharedDiffs: @unchecked Sendable {
    // @unchecked: `state` is touched only under `lock`.

    /// Where a pair sits and what was derived there.
    package struct Place {
        let source: StorageIdentity
        let target: StorageIdentity
        /// The pair's path tokens; compared by their bytes, as pointers are written.
        let path: [String]
        let identityKey: String

        fileprivate func matches(_ other: Place) -> Bool {
            source == other.source && target == other.target && path.count == other.path.count
                && JSON.sameBytes(identityKey, other.identityKey) && path.elementsEqual(other.path, by: JSON.sameBytes)
        }
    }

    /// A kept pair: its place, the values (kept alive), the operations and their size
    /// as the diff counts it. (A class: looking one up copies a reference, not its
    /// members.)
    private final class Entry {
        let place: Place
        let values: (source: JSON, target: JSON)
        let operations: [PatchOperation]
        let size: Int

        init(place: Place, values: (source: JSON, target: JSON), operations: [PatchOperation], size: Int) {
            self.place = place
            self.values = values
            self.operations = operations
            self.size = size
        }
    }

    /// A pair seen once: its identities and the length of its path (a cheap note; the
    /// place is compared in full when the pair is kept), and its values, held so that
    /// no other value takes their addresses while the note is kept.
    private struct Sighting {
        let source: StorageIdentity
        let target: StorageIdentity
        let depth: Int
        let values: (source: JSON, target: JSON)

        func matches(_ other: Sighting) -> Bool {
            source == other.source && target == other.target && depth == other.depth
        }
    }

    private struct State {
        var entries: [Entry] = []
        var sightings: [Sighting] = []
        var nextSighting = 0
        var hits = 0
        var misses = 0
    }

    /// The one that ``JSONPatch/diff(from:to:options:)`` uses.
    package static let shared = SharedDiffs()

    /// How many pairs are kept.
    package let capacity: Int
    /// How many pairs seen once are noted: a session's document may hold a few pairs of
    /// its own (the object around a shared row) around each shared one.
    private let sightingCapacity = 8
    private let lock = PthreadMutex()
    private var state = State()

    package init(capacity: Int = 8) {
        self.capacity = max(1, capacity)
    }

    /// The operations and size kept for the pair at `place`, if it is kept.
    func kept(at place: Place) -> (operations: [PatchOperation], size: Int)? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = state.entries.last(where: { $0.place.matches(place) }) else {
            state.misses += 1
            return nil
        }
        state.hits += 1
        return (entry.operations, entry.size)
    }

    /// Notes the pair `values` at `place`, whose diff emitted `operations()` of `size`.
    /// A pair seen before is kept; `operations` is called only then.
    func derived(
        at place: Place, values: (source: JSON, target: JSON), size: Int, operations: () -> [PatchOperation]
    ) {
        let sighting = Sighting(source: place.source, target: place.target, depth: place.path.count, values: values)
        lock.lock()
        let seen = state.sightings.contains { $0.matches(sighting) }
        if !seen {
            if state.sightings.count < sightingCapacity {
                state.sightings.append(sighting)
            } else {
                state.sightings[state.nextSighting] = sighting
                state.nextSighting = (state.nextSighting + 1) % sightingCapacity
            }
        }
        lock.unlock()
        guard seen else { return }
        let entry = Entry(place: place, values: values, operations: operations(), size: size)
        lock.lock()
        if !state.entries.contains(where: { $0.place.matches(place) }) {
            if state.entries.count >= capacity { state.entries.removeFirst() }
            state.entries.append(entry)
        }
        lock.unlock()
    }

    /// Whether `operations` is the very array kept for a pair (not merely an equal one):
    /// a list that every session showing a shared value sends. Never an empty list
    /// (every empty array has the same address).
    package func keeps(_ operations: [PatchOperation]) -> Bool {
        guard !operations.isEmpty else { return false }
        let identity = Self.identity(of: operations)
        lock.lock()
        defer { lock.unlock() }
        return state.entries.contains { Self.identity(of: $0.operations) == identity }
    }

    /// The address and count of an array's buffer.
    package static func identity(of operations: [PatchOperation]) -> ListIdentity {
        operations.withUnsafeBufferPointer { ListIdentity(address: UnsafeRawPointer($0.baseAddress), count: $0.count) }
    }

    /// Where a list of operations is in memory (``identity(of:)``): the same identity
    /// means the same list while one of the two is alive.
    package struct ListIdentity: Equatable {
        let address: UnsafeRawPointer?
        let count: Int
    }

    /// Pairs handed out from a kept diff, and pairs looked up and diffed afresh.
    package var statistics: (hits: Int, misses: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (state.hits, state.misses)
    }
}
