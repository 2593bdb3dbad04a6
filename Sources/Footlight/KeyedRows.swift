import FootlightJSON
import OrderedCollections

/// The rows of one keyed slot of a stage (bound to ``RowChange``s), by id in page
/// order, and the patch operations that carry the changes not yet sent.
///
/// The rows live outside the document the session diffs: a change costs one hash
/// lookup and one operation, whatever the number of rows. At most
/// ``maximumPendingOperations`` wait; past that (a client behind a slow socket, a
/// Director sending a storm of changes) the slot is sent whole instead, so nothing
/// queued grows without bound.
struct KeyedRows {
    /// The most operations kept for one slot between two sends.
    static let maximumPendingOperations = 128

    private let slot: String
    private(set) var rows: JSONObject = [:]
    /// The operations since the last send, or nil when the slot is to be sent whole.
    private var pending: [PatchOperation]? = []

    init(slot: String) {
        self.slot = slot
    }

    /// The rows as the document holds them (sharing the rows' storage).
    var json: JSON { .array(rows.values.elements) }

    /// Applies `change`; returns a readable message for each row it refused or
    /// replaced because its id repeated.
    mutating func apply<Row>(_ change: RowChange<Row>, stage: String) -> [String] {
        switch change {
        case .insert(let row, let index):
            guard let value = checked(row, stage: stage) else { return [refusal(row.id, stage: stage)] }
            if let existing = rows.index(forKey: row.id) {
                replace(at: existing, with: value)
            } else {
                let at = min(max(index ?? rows.count, 0), rows.count)
                rows.updateValue(value, forKey: row.id, insertingAt: at)
                record(.add(path: pointer(at), value: value))
            }
        case .update(let row):
            guard let value = checked(row, stage: stage) else { return [refusal(row.id, stage: stage)] }
            if let existing = rows.index(forKey: row.id) {
                replace(at: existing, with: value)
            } else {
                rows[row.id] = value
                record(.add(path: pointer(rows.count - 1), value: value))
            }
        case .remove(let id):
            guard let index = rows.index(forKey: id) else { return [] }
            rows.remove(at: index)
            record(.remove(path: pointer(index)))
        case .move(let id, let to):
            guard let from = rows.index(forKey: id) else { return [] }
            let value = rows.remove(at: from).value
            let at = min(max(to, 0), rows.count)
            rows.updateValue(value, forKey: id, insertingAt: at)
            if from != at { record(.move(from: pointer(from), path: pointer(at))) }
        case .reset(let new):
            var messages: [String] = []
            var fresh = JSONObject(minimumCapacity: new.count)
            for row in new {
                guard let value = checked(row, stage: stage) else {
                    messages.append(refusal(row.id, stage: stage))
                    continue
                }
                if fresh.updateValue(value, forKey: row.id) != nil {
                    messages.append(
                        "keyed slot \"\(slot)\" of stage \"\(stage)\" got two rows with the id \"\(row.id)\"; the later one is kept, where the first stood"
                    )
                }
            }
            rows = fresh
            pending = nil
            return messages
        }
        return []
    }

    /// Takes the operations for the changes since the last call: each change's, or
    /// one `add` of the whole slot when they were too many or a reset.
    mutating func takeOperations() -> [PatchOperation] {
        defer { pending = [] }
        return pending ?? [.add(path: JSONPointer(tokens: [slot]), value: json)]
    }

    /// Forgets the operations not sent: the client got the whole slot (a mount).
    mutating func discardOperations() {
        pending = []
    }

    /// Whether changes wait to be sent.
    var hasPendingOperations: Bool { pending?.isEmpty != true }

    private mutating func replace(at index: Int, with value: JSON) {
        // As a value slot compares (storage first: a shared, unchanged row costs no walk).
        if rows.values[index].isIdentical(to: value) { return }
        rows.values[index] = value
        record(.replace(path: pointer(index), value: value))
    }

    private mutating func record(_ operation: PatchOperation) {
        guard pending != nil else { return }
        if pending!.count >= Self.maximumPendingOperations {
            pending = nil
        } else {
            pending!.append(operation)
        }
    }

    private func pointer(_ index: Int) -> JSONPointer {
        JSONPointer(tokens: [slot, String(index)])
    }

    /// The row's JSON, when it is an object whose `id` member is the row's id and JSON
    /// can hold it (a row sits 5 levels deep in a mount: message → doc → slot → rows).
    private func checked<Row: ViewValue & Identifiable>(_ row: Row, stage: String) -> JSON? where Row.ID == String {
        let value = row.viewJSON
        guard value["id"]?.stringValue == row.id, value.isRepresentable(nestedAt: 5) else { return nil }
        return value
    }

    private func refusal(_ id: String, stage: String) -> String {
        "keyed slot \"\(slot)\" of stage \"\(stage)\" got a row \"\(id)\" that is not an object whose \"id\" is its id, or that JSON cannot hold (NaN, infinity or nesting too deep); the row is left as it was"
    }
}
