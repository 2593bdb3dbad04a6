import FootlightJSON

/// One change to a keyed collection: a slot whose value is a list of rows, each named
/// by a stable `id` (the way LiveView streams work).
///
/// A Director that knows what changed says so row by row, and the page receives one
/// patch operation per change, whatever the collection's length: an update is one
/// `replace` of that row. Bind a publisher of changes to a slot with `Stage.bind(_:to:)`;
/// a Director that has whole arrays derives its changes with `rowChanges()` or
/// ``changes(from:to:)``.
///
/// Rows are found by id, so a change never names a position it has not checked:
/// - ``insert(_:at:)`` adds a row at an index (clamped to the collection; `nil`
///   appends). A row whose id is already there replaces that row where it stands.
/// - ``update(_:)`` replaces the row with the same id where it stands; an id not
///   there is appended, so no row a Director sends is lost.
/// - ``remove(id:)`` removes a row; an id not there changes nothing.
/// - ``move(id:to:)`` takes the row out and puts it back at `index` (clamped), as
///   RFC 6902's `move` does; an id not there changes nothing.
/// - ``reset(_:)`` replaces the whole collection (a later row with an id seen before
///   replaces the earlier one, which is reported as a binding error).
public enum RowChange<Row: ViewValue & Identifiable> where Row.ID == String {
    case insert(Row, at: Int? = nil)
    case update(Row)
    case remove(id: String)
    case move(id: String, to: Int)
    case reset([Row])
}

extension RowChange: Sendable where Row: Sendable {}

extension RowChange: Equatable where Row: Equatable {}

extension RowChange where Row: Equatable {
    /// The most row changes ``changes(from:to:)`` returns before it gives the whole
    /// collection as one ``reset(_:)`` instead.
    public static var maximumChanges: Int { 64 }

    /// The changes that turn `old` into `new`, matching rows by id: removals, then the
    /// fewest moves that put the remaining rows in order, then insertions at their final
    /// index, then updates of rows that differ. Over ``maximumChanges`` changes (a
    /// reorder of a long list), one ``reset(_:)``. Rows repeating an id in `new` make
    /// a reset, which reports them.
    ///
    /// Costs O(n) comparisons of rows plus O(n) per move or insertion, so it suits a
    /// Director that receives whole arrays; one that knows what changed should send
    /// the changes itself.
    public static func changes(from old: [Row], to new: [Row]) -> [RowChange] {
        if let updates = updatesInPlace(from: old, to: new) { return updates }
        var newIndex: [String: Int] = [:]
        newIndex.reserveCapacity(new.count)
        for (index, row) in new.enumerated() where newIndex.updateValue(index, forKey: row.id) != nil {
            return [.reset(new)]
        }
        var changes: [RowChange] = []
        func add(_ change: RowChange) -> Bool {
            changes.append(change)
            return changes.count <= maximumChanges
        }
        // 1. Removals; the survivors, in their current order, as indices into `new`.
        var current: [Int] = []
        current.reserveCapacity(min(old.count, new.count))
        var oldIndex: [String: Int] = [:]
        oldIndex.reserveCapacity(old.count)
        for (index, row) in old.enumerated() {
            oldIndex[row.id] = index
            if let target = newIndex[row.id] {
                current.append(target)
            } else if !add(.remove(id: row.id)) {
                return [.reset(new)]
            }
        }
        // 2. Every survivor off the longest increasing run moves to just after the
        //    survivor that precedes it in `new`, in `new`'s order.
        if !zip(current, current.dropFirst()).allSatisfy({ $0 < $1 }) {
            let stable = LongestIncreasingSubsequence.members(of: current)
            let survivors = current.sorted()
            for (rank, target) in survivors.enumerated() where !stable.contains(target) {
                let from = current.firstIndex(of: target)!
                current.remove(at: from)
                let to = rank == 0 ? 0 : current.firstIndex(of: survivors[rank - 1])! + 1
                current.insert(target, at: to)
                if from != to, !add(.move(id: new[target].id, to: to)) { return [.reset(new)] }
            }
        }
        // 3. New rows at their final index, in order; 4. rows that differ.
        for (index, row) in new.enumerated() where oldIndex[row.id] == nil {
            if !add(.insert(row, at: index)) { return [.reset(new)] }
        }
        for (index, row) in new.enumerated() {
            if let before = oldIndex[row.id], old[before] != row, !add(.update(new[index])) { return [.reset(new)] }
        }
        return changes
    }

    /// The common case, without hashing: the same ids in the same order, so the changes
    /// are the updates of rows that differ (nil when the ids differ, or when more than
    /// ``maximumChanges`` rows do and the answer is a reset).
    private static func updatesInPlace(from old: [Row], to new: [Row]) -> [RowChange]? {
        guard old.count == new.count else { return nil }
        var updates: [RowChange] = []
        for index in new.indices {
            guard old[index].id == new[index].id else { return nil }
            if old[index] != new[index] {
                guard updates.count < maximumChanges else { return nil }
                updates.append(.update(new[index]))
            }
        }
        return updates
    }
}
