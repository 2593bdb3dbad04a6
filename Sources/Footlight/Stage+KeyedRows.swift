import FootlightJSON

/// Keyed collections: slots bound to ``RowChange``s, whose changes reach the page as
/// patch operations of their rows (the session takes them after its diff), and its
/// host hears of them as of any change (``StageHost/stageChanged()``).
extension Stage {
    /// Feeds the keyed collection in slot `slot` from `changes`: a list of rows found by
    /// id, changed row by row (see ``RowChange``). The slot starts as an empty list; each
    /// change reaches the page as one patch operation, so an update to one row of
    /// 10,000 costs one `replace`. A row that is not an object whose `id` member is its
    /// id is refused as a binding error, and the collection keeps its previous row.
    public func bind<Output: Publisher, Row>(_ changes: Output, to slot: String)
    where Output.Output == [RowChange<Row>], Output.Failure == Never {
        addKeyedSlot(slot)
        keep(
            changes.sink { [weak self] changes in
                self?.change(slot, by: changes)
            })
    }

    /// Feeds the keyed collection in slot `slot` from `changes`, one change at a time
    /// (see the batch form above).
    public func bind<Output: Publisher, Row>(_ changes: Output, to slot: String)
    where Output.Output == RowChange<Row>, Output.Failure == Never {
        bind(changes.map { [$0] }, to: slot)
    }

    /// Takes the patch operations of the keyed collections' changes since the last
    /// call (the session sends them after the diff of ``valueDocument``).
    package func takeRowOperations() -> [PatchOperation] {
        guard !keyed.isEmpty else { return [] }
        var operations: [PatchOperation] = []
        for index in keyed.values.indices where keyed.values[index].hasPendingOperations {
            operations += keyed.values[index].takeOperations()
        }
        return operations
    }

    /// Forgets the keyed collections' unsent changes: the page got the whole document.
    package func discardRowOperations() {
        for index in keyed.values.indices { keyed.values[index].discardOperations() }
    }

    func addKeyedSlot(_ slot: String) {
        declared.add(slot: slot)
        guard keyed[slot] == nil else { return }
        keyed[slot] = KeyedRows(slot: slot)
        if case .object(var members) = valueDocument, members.removeValue(forKey: slot) != nil {
            valueDocument = .object(members)
        }
    }

    func change<Row>(_ slot: String, by changes: [RowChange<Row>]) {
        guard keyed[slot] != nil, !changes.isEmpty else { return }
        var failures: [String] = []
        for change in changes {
            failures += keyed[slot]!.apply(change, stage: name)
        }
        for failure in failures { host?.stageFailed(failure) }
        if keyed[slot]!.hasPendingOperations { host?.stageChanged() }
    }
}
