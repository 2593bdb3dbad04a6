/// The stages a session shows, in page order: roots, then the navigation stack, then
/// modals. Names each instance (a root by its template, others `template-N`) and keeps
/// `Extra` beside each: what the server last sent, or what a scene test last checked.
package struct StageStack<Extra> {
    package struct Entry {
        package let id: String
        package let stage: Stage
        package let placement: Placement
        package let url: String?
        package var extra: Extra
    }

    package private(set) var entries: [Entry] = []
    private var counter = 0

    package init() {}

    /// Adds `stage` where `placement` puts it and returns its instance id.
    package mutating func add(_ stage: Stage, placement: Placement, url: String?, extra: Extra) -> String {
        let id: String
        if placement == .root, !entries.contains(where: { $0.id == stage.name }) {
            id = stage.name
        } else {
            counter += 1
            id = "\(stage.name)-\(counter)"
        }
        let entry = Entry(id: id, stage: stage, placement: placement, url: url, extra: extra)
        switch placement {
        case .modal: entries.append(entry)
        case .push: entries.insert(entry, at: entries.firstIndex { $0.placement == .modal } ?? entries.count)
        case .root: entries.insert(entry, at: entries.firstIndex { $0.placement != .root } ?? entries.count)
        }
        return id
    }

    /// Removes and returns the last entry with `placement` (its stage cancelled).
    package mutating func removeTop(_ placement: Placement) -> Entry? {
        guard let index = entries.lastIndex(where: { $0.placement == placement }) else { return nil }
        let entry = entries.remove(at: index)
        entry.stage.cancel()
        return entry
    }

    /// What the back button closes: the top modal, or else the top of the stack.
    package var backTarget: Placement {
        entries.contains { $0.placement == .modal } ? .modal : .push
    }

    package func index(of id: String) -> Int? {
        entries.firstIndex { $0.id == id }
    }

    package subscript(index: Int) -> Entry {
        get { entries[index] }
        _modify { yield &entries[index] }
    }

    package var indices: Range<Int> { entries.indices }
    package var isEmpty: Bool { entries.isEmpty }
    package var count: Int { entries.count }
}
