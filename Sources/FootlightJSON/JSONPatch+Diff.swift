/// How ``JSONPatch/diff(from:to:options:)`` compares arrays.
public struct DiffOptions: Sendable, Hashable {
    /// The member that identifies a row in an array of objects (default `"id"`).
    ///
    /// An array is diffed by key when every element on both sides is an object whose
    /// identity member is a string or an integer, unique within its array. Rows are
    /// then followed across reorders (`move`), insertions (`add`) and removals.
    public var identityKey: String

    public init(identityKey: String = "id") {
        self.identityKey = identityKey
    }
}

extension JSONPatch {
    /// The patch that turns `source` into `target`.
    ///
    /// - Objects: removed keys give `remove`, new keys `add`, changed members recurse,
    ///   so a change deep inside produces a deep path.
    /// - Keyed arrays (see ``DiffOptions/identityKey``): removals, then the fewest
    ///   `move`s (rows on a longest increasing subsequence stay put), then `add`s, then
    ///   changes inside rows at their final index.
    /// - Other arrays: the common prefix and suffix are kept, the middle is changed
    ///   element by element, then shortened or extended at its end.
    /// - A changed scalar, or a change of kind, gives `replace`.
    ///
    /// Wherever the operations for a value would serialise larger than one `replace` of
    /// that value, the `replace` is emitted instead, so the patch is never larger than
    /// replacing the whole document. `diff(a, b).applied(to: a)` always yields `b`,
    /// with the same number representation (`1` and `1.0` are treated as different).
    ///
    /// The diff between two arrays or objects that many documents share, at the same
    /// place inside each, is derived for the first documents that meet it and then
    /// handed out again to the rest, as the same operations (a few recent pairs are
    /// kept, process-wide, with their values).
    public static func diff(from source: JSON, to target: JSON, options: DiffOptions = DiffOptions()) -> JSONPatch {
        diff(from: source, to: target, options: options, sharing: .shared)
    }

    /// ``diff(from:to:options:)`` with the shared diffs of `sharing`, or none.
    package static func diff(from source: JSON, to target: JSON, options: DiffOptions, sharing: SharedDiffs?)
        -> JSONPatch
    {
        var differ = Differ(identityKey: options.identityKey, sharing: sharing)
        differ.diff(source, target)
        return JSONPatch(differ.operations)
    }
}

/// Walks two documents and collects operations, tracking their serialised size.
struct Differ {
    let identityKey: String
    /// Where the diffs of shared values are kept, if anywhere.
    let sharing: SharedDiffs?
    private(set) var operations: [PatchOperation] = []
    /// Compact size of `operations` as array elements, each counted with one comma.
    private var size = 0
    /// Tokens of the path being compared; materialised only when an op is emitted.
    private var path: [String] = []

    init(identityKey: String, sharing: SharedDiffs? = nil) {
        self.identityKey = identityKey
        self.sharing = sharing
    }

    mutating func diff(_ source: JSON, _ target: JSON) {
        // A row or subtree shared by both documents has not changed.
        if source.sharesStorage(with: target) { return }
        switch (source, target) {
        case (.object(let a), .object(let b)):
            shared(source, target) { $0.guarded(target) { $0.diffObjects(a, b) } }
        case (.array(let a), .array(let b)):
            shared(source, target) { $0.guarded(target) { $0.diffArrays(a, b) } }
        default:
            if !Self.identical(source, target) { emit(.replace(path: pointer, value: target)) }
        }
    }

    /// Runs `body`, which diffs the containers `source` and `target` here, unless their
    /// diff here is kept in ``sharing``: then emits the kept operations. Notes what
    /// `body` emitted, so that a pair met again is kept. Not at the root: a document's
    /// root is its own, and the values it shares with others sit inside it.
    private mutating func shared(_ source: JSON, _ target: JSON, _ body: (inout Differ) -> Void) {
        guard let sharing, !path.isEmpty, let sourceIdentity = source.storageIdentity, sourceIdentity.count > 0,
            let targetIdentity = target.storageIdentity, targetIdentity.count > 0
        else { return body(&self) }
        // The place is made again after `body`: held across it, it would share `path`'s
        // buffer, and each token `body` appends would copy the path.
        if let kept = sharing.kept(at: place(sourceIdentity, targetIdentity)) {
            if operations.isEmpty { operations = kept.operations } else { operations += kept.operations }
            size += kept.size
            return
        }
        let firstOperation = operations.count
        let sizeBefore = size
        body(&self)
        sharing.derived(
            at: place(sourceIdentity, targetIdentity), values: (source, target), size: size - sizeBefore
        ) { Array(operations[firstOperation...]) }
    }

    private func place(_ source: StorageIdentity, _ target: StorageIdentity) -> SharedDiffs.Place {
        SharedDiffs.Place(source: source, target: target, path: path, identityKey: identityKey)
    }

    /// Runs `body`, then swaps what it emitted for one `replace` of `target` when the
    /// replace is smaller.
    private mutating func guarded(_ target: JSON, _ body: (inout Differ) -> Void) {
        let firstOperation = operations.count
        let sizeBefore = size
        body(&self)
        let added = size - sizeBefore
        guard added > 0 else { return }
        let replacement = PatchOperation.replace(path: pointer, value: .null)
        let fixedCost = replacement.compactSize - 4 + 1
        guard fixedCost < added else { return }
        let valueSize = target.compactSize(limit: added - fixedCost)
        if fixedCost + valueSize < added {
            operations.removeSubrange(firstOperation...)
            size = sizeBefore
            emit(.replace(path: pointer, value: target))
        }
    }

    private mutating func emit(_ operation: PatchOperation) {
        operations.append(operation)
        size += operation.compactSize + 1
    }

    private var pointer: JSONPointer { JSONPointer(tokens: path) }

    private mutating func child(_ token: String, _ source: JSON, _ target: JSON) {
        path.append(token)
        diff(source, target)
        path.removeLast()
    }

    private func childPointer(_ token: String) -> JSONPointer {
        JSONPointer(tokens: path + [token])
    }

    // MARK: Objects

    private mutating func diffObjects(_ a: JSONObject, _ b: JSONObject) {
        // Fast path for the common case of the same keys in the same order (a row of a
        // view document after an update): pair members by position, with no hashing.
        if a.count == b.count, a.keys.elementsEqual(b.keys, by: JSON.sameBytes) {
            for position in 0..<a.count {
                child(a.keys[position], a.values[position], b.values[position])
            }
            return
        }
        for (key, _) in a where b[key] == nil {
            emit(.remove(path: childPointer(key)))
        }
        for (key, newValue) in b {
            if let oldValue = a[key] {
                child(key, oldValue, newValue)
            } else {
                emit(.add(path: childPointer(key), value: newValue))
            }
        }
    }

    // MARK: Arrays

    private mutating func diffArrays(_ a: [JSON], _ b: [JSON]) {
        // Fast path for the common case of the same rows in the same order (a list
        // after one of its rows changed): pair elements by position, with no hashing.
        // Keyed or not, the full algorithm would do the same here.
        if a.count == b.count, zip(a, b).allSatisfy({ sameRow($0, $1) }) {
            // Rows whose storage both sides share are skipped before their path token
            // is even made: one changed row of 10,000 costs the scan, not 10,000 visits.
            for index in a.indices where !a[index].sharesStorage(with: b[index]) {
                child(String(index), a[index], b[index])
            }
            return
        }
        if let rowsA = KeyedRows(a, identityKey: identityKey), let rowsB = KeyedRows(b, identityKey: identityKey) {
            diffKeyed(a, rowsA, b, rowsB)
        } else {
            diffPlain(a, b)
        }
    }

    private mutating func diffPlain(_ a: [JSON], _ b: [JSON]) {
        var prefix = 0
        while prefix < a.count, prefix < b.count, Self.identical(a[prefix], b[prefix]) { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix,
            Self.identical(a[a.count - 1 - suffix], b[b.count - 1 - suffix])
        {
            suffix += 1
        }
        let middleA = a.count - prefix - suffix
        let middleB = b.count - prefix - suffix
        for offset in 0..<min(middleA, middleB) {
            child(String(prefix + offset), a[prefix + offset], b[prefix + offset])
        }
        if middleA > middleB {
            for index in (prefix + middleB..<prefix + middleA).reversed() {
                emit(.remove(path: childPointer(String(index))))
            }
        } else {
            for index in prefix + middleA..<prefix + middleB {
                emit(.add(path: childPointer(String(index)), value: b[index]))
            }
        }
    }

    private mutating func diffKeyed(_ a: [JSON], _ rowsA: KeyedRows, _ b: [JSON], _ rowsB: KeyedRows) {
        // Where each source row sits in the target, or nil when it is gone.
        let targetIndexOfSource = rowsA.keys.map { rowsB.index[$0] }

        // 1. Remove rows that are gone, from the end so earlier indices hold.
        for index in a.indices.reversed() where targetIndexOfSource[index] == nil {
            emit(.remove(path: childPointer(String(index))))
        }

        var sourceIndexOfTarget = [Int](repeating: -1, count: b.count)
        for (sourceIndex, targetIndex) in targetIndexOfSource.enumerated() {
            if let targetIndex { sourceIndexOfTarget[targetIndex] = sourceIndex }
        }
        // Rows on both sides, ranked by their order in the target.
        var rankOfTarget = [Int](repeating: -1, count: b.count)
        var common: [Int] = []  // target indices of rows also in the source, in order
        for targetIndex in b.indices where sourceIndexOfTarget[targetIndex] >= 0 {
            rankOfTarget[targetIndex] = common.count
            common.append(targetIndex)
        }
        // The surviving rows in their current order, as target ranks.
        var current = targetIndexOfSource.compactMap { $0.map { rankOfTarget[$0] } }

        // 2. Move every row off the longest increasing run to just after its target
        //    predecessor, in target order: the fewest moves that sort the survivors.
        let stable = LongestIncreasingSubsequence.members(of: current)
        for rank in common.indices where !stable.contains(rank) {
            let from = current.firstIndex(of: rank)!
            current.remove(at: from)
            let to = rank == 0 ? 0 : current.firstIndex(of: rank - 1)! + 1
            current.insert(rank, at: to)
            if from != to {
                emit(.move(from: childPointer(String(from)), path: childPointer(String(to))))
            }
        }

        // 3. Insert new rows at their final index, in order.
        for targetIndex in b.indices where sourceIndexOfTarget[targetIndex] < 0 {
            emit(.add(path: childPointer(String(targetIndex)), value: b[targetIndex]))
        }

        // 4. Changes inside rows present on both sides, at their final index.
        for targetIndex in common {
            child(String(targetIndex), a[sourceIndexOfTarget[targetIndex]], b[targetIndex])
        }
    }

    /// Whether two elements at the same position are the same row: the same storage,
    /// or objects with identical identity members.
    private func sameRow(_ a: JSON, _ b: JSON) -> Bool {
        if a.sharesStorage(with: b) { return true }
        guard case .object(let rowA) = a, case .object(let rowB) = b, let keyA = rowA[identityKey],
            let keyB = rowB[identityKey]
        else { return false }
        return Self.identical(keyA, keyB)
    }

    // MARK: Equality

    /// Equality that also keeps number representation: `1` and `1.0`, `0.0` and
    /// `-0.0` differ here, so a diff reproduces the target's text exactly.
    static func identical(_ lhs: JSON, _ rhs: JSON) -> Bool {
        if lhs.sharesStorage(with: rhs) { return true }
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b && a.sign == b.sign
        case (.string(let a), .string(let b)): return JSON.sameBytes(a, b)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { identical($0, $1) }
        case (.object(let a), .object(let b)): return JSON.sameMembers(a, b, by: identical)
        default: return false
        }
    }
}

/// The identities of an array's rows, when the array is keyed: every element an object
/// whose identity member is a string or an integer, unique within the array.
struct KeyedRows {
    /// Each row's identity, in array order.
    let keys: [JSON]
    /// The index of the row with each identity.
    let index: [JSON: Int]

    init?(_ array: [JSON], identityKey: String) {
        var keys: [JSON] = []
        keys.reserveCapacity(array.count)
        var index: [JSON: Int] = [:]
        index.reserveCapacity(array.count)
        for (position, element) in array.enumerated() {
            guard case .object(let members) = element, let key = members[identityKey] else { return nil }
            switch key {
            case .string, .int: break
            default: return nil
            }
            guard index.updateValue(position, forKey: key) == nil else { return nil }
            keys.append(key)
        }
        self.keys = keys
        self.index = index
    }
}
