extension Publisher where Failure == Never {
    /// The row changes between each array of rows and the one before (matched by id,
    /// ``RowChange/changes(from:to:)``), for a keyed slot: the first array is a
    /// ``RowChange/reset(_:)``, and an array that changes nothing emits nothing.
    ///
    /// ```swift
    /// stage.bind(director.rows.rowChanges(), to: "rows")   // director.rows: [LotRow]
    /// ```
    public func rowChanges<Row>() -> AnyPublisher<[RowChange<Row>], Never>
    where Output == [Row], Row: ViewValue & Identifiable & Equatable, Row.ID == String {
        scan((previous: [Row]?.none, changes: [RowChange<Row>]())) { state, rows in
            (rows, state.previous.map { RowChange.changes(from: $0, to: rows) } ?? [.reset(rows)])
        }
        .map(\.changes)
        .filter { !$0.isEmpty }
        .eraseToAnyPublisher()
    }
}
