import FootlightJSON

extension Publisher where Failure == Never {
    /// The row changes between each array of rows and the one before (matched by id,
    /// ``RowChange/changes(from:to:)``), for a keyed slot: the first array is a
    /// ``RowChange/reset(_:)``, and an array that changes nothing emits nothing.
    ///
    /// ```swift
    /// stage.bind(director.rows.rowChanges(), to: "rows")   // director.rows: [LotRow]
    /// ```
    ///
    /// Sessions whose Directors share their arrays (rows made once for all of them, as
    /// the kiosk's listings are) share the changes too: those between the same two
    /// arrays are derived once (``SharedRowChanges``).
    public func rowChanges<Row>() -> AnyPublisher<[RowChange<Row>], Never>
    where Output == [Row], Row: ViewValue & Identifiable & Equatable, Row.ID == String {
        Deferred {
            // Per subscription: the rows last seen.
            var previous: [Row]?
            return compactMap { rows -> [RowChange<Row>]? in
                defer { previous = rows }
                guard let old = previous else { return [.reset(rows)] }
                let changes = SharedRowChanges.changes(from: old, to: rows)
                return changes.isEmpty ? nil : changes
            }
        }
        .eraseToAnyPublisher()
    }
}

/// The row changes derived last, by the arrays they were derived between: a change
/// to a shared service reaches thousands of sessions' Directors as the same two arrays,
/// and the changes between them are derived once for all.
///
/// Arrays match by their storage (the same buffer, so the same rows without looking at
/// any); equal arrays in separate buffers are compared as usual. It keeps the last few
/// pairs (and so their arrays) alive; thread-safe.
enum SharedRowChanges {
    /// A pair of non-empty arrays by their buffers, and what was derived between them
    /// (an `Entry` of their row type). The entry keeps both arrays alive, so no other
    /// array can take their buffers' addresses while it is kept: the same addresses mean
    /// the same arrays; the row type is matched too. (Empty arrays of every type share
    /// one buffer, so they are never kept.)
    private struct Kept {
        /// The row type (an array of subclass rows can share its buffer with the same
        /// array typed as their superclass).
        let row: ObjectIdentifier
        let old: Buffer
        let new: Buffer
        let entry: AnyObject
    }

    private struct Buffer: Equatable {
        let base: UnsafeRawPointer?
        let count: Int

        init<Element>(_ array: [Element]) {
            (base, count) = array.withUnsafeBufferPointer { (UnsafeRawPointer($0.baseAddress), $0.count) }
        }
    }

    private final class Entry<Row: ViewValue & Identifiable> where Row.ID == String {
        let old: [Row]
        let new: [Row]
        let changes: [RowChange<Row>]

        init(old: [Row], new: [Row], changes: [RowChange<Row>]) {
            self.old = old
            self.new = new
            self.changes = changes
        }
    }

    /// How many pairs are kept, of every row type together.
    static let capacity = 8
    private static let lock = PthreadMutex()
    nonisolated(unsafe) private static var kept: [Kept] = []  // guarded by `lock`

    /// ``RowChange/changes(from:to:)``, from a kept pair when `old` and `new` are the
    /// very arrays it was derived between.
    static func changes<Row>(from old: [Row], to new: [Row]) -> [RowChange<Row>]
    where Row: ViewValue & Identifiable & Equatable, Row.ID == String {
        guard !old.isEmpty, !new.isEmpty else { return RowChange.changes(from: old, to: new) }
        let (row, oldBuffer, newBuffer) = (ObjectIdentifier(Row.self), Buffer(old), Buffer(new))
        lock.lock()
        let entry = kept.first { $0.row == row && $0.old == oldBuffer && $0.new == newBuffer }?.entry
        lock.unlock()
        if let entry { return unsafeDowncast(entry, to: Entry<Row>.self).changes }
        let changes = RowChange.changes(from: old, to: new)
        let made = Kept(row: row, old: oldBuffer, new: newBuffer, entry: Entry(old: old, new: new, changes: changes))
        lock.lock()
        if kept.count >= capacity { kept.removeFirst() }
        kept.append(made)
        lock.unlock()
        return changes
    }
}
