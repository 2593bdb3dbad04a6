import Footlight

/// The stages a session shows, in page order: roots, then the navigation stack, then
/// modals, then the components placed in them (a component always after its parent).
/// Names each instance (a root by its template, others `template-N`, components
/// `template-cN`, so that components do not renumber the stages pushed) and keeps
/// `Extra` beside each: what the server last sent.
package struct StageStack<Extra> {
    package struct Entry {
        package let id: String
        package let stage: Stage
        /// Where the stage shows; a component shows where its parent does.
        package let placement: Placement
        /// The address the page shows for the stage: given when it was shown, then its
        /// Director's (``Stage/bindAddress(_:)``) or the one the visitor went to.
        package internal(set) var url: String?
        /// For a component: its parent's instance id and where it sits in its template.
        package let component: ComponentPlacement?
        package var extra: Extra

        package var isComponent: Bool { component != nil }
    }

    package private(set) var entries: [Entry] = []
    private var counter = 0
    private var componentCounter = 0
    /// Each entry's index by id: made on the first look-up after entries moved, and kept
    /// as components are appended (a list of 1,000 components looks one up per change).
    private var positions: [String: Int]?
    /// The ids of the stages that have had components placed in them: removing any
    /// other stage needs no search for its components.
    private var parents: Set<String> = []

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
        let entry = Entry(id: id, stage: stage, placement: placement, url: url, component: nil, extra: extra)
        let components = entries.firstIndex(where: \.isComponent) ?? entries.count
        let after: (Entry) -> Bool =
            switch placement {
            case .modal: \.isComponent
            case .push: { $0.placement == .modal || $0.isComponent }
            case .root: { $0.placement != .root || $0.isComponent }
            }
        entries.insert(entry, at: entries[..<components].firstIndex(where: after) ?? components)
        positions = nil
        return id
    }

    /// Adds `stage` as a component of the stage `parent` at `host`; returns its instance
    /// id, or nil when `parent` is not shown.
    package mutating func add(_ stage: Stage, in parent: String, at host: ComponentHost, extra: Extra) -> String? {
        guard let index = index(of: parent) else { return nil }
        componentCounter += 1
        let id = "\(stage.name)-c\(componentCounter)"
        entries.append(
            Entry(
                id: id, stage: stage, placement: entries[index].placement, url: nil,
                component: ComponentPlacement(parent: parent, host: host),
                extra: extra))
        positions?[id] = entries.count - 1
        parents.insert(parent)
        return id
    }

    /// Removes and returns the last stage with `placement` that is not a component,
    /// with its components, parents first (their stages cancelled).
    package mutating func removeTop(_ placement: Placement) -> [Entry] {
        guard let index = entries.lastIndex(where: { $0.placement == placement && !$0.isComponent }) else { return [] }
        return remove(at: index)
    }

    /// Removes and returns the entry at `index` with its components, parents first
    /// (their stages cancelled).
    package mutating func remove(at index: Int) -> [Entry] {
        remove(seeds: [index])
    }

    /// Removes and returns the entries holding the components `stages`, with their own
    /// components, in page order (parents first; their stages cancelled).
    package mutating func remove(_ stages: [Stage]) -> [Entry] {
        let wanted = Set(stages.map(ObjectIdentifier.init))
        return remove(seeds: entries.indices.filter { wanted.contains(ObjectIdentifier(entries[$0].stage)) })
    }

    /// Removes and returns the entries at `seeds` (ascending) with their components, in
    /// page order, and cancels their stages: one pass however many go, where removing
    /// them one by one shifted the rest each time (a list of components cleared at once).
    private mutating func remove(seeds: [Int]) -> [Entry] {
        guard let first = seeds.first else { return [] }
        var removed = Set(seeds.map { entries[$0].id })
        var indices = seeds
        // Components come after their parents; only a stage that has had some can have any.
        if !parents.isDisjoint(with: removed) {
            for later in entries.indices.dropFirst(first + 1) where !removed.contains(entries[later].id) {
                if let component = entries[later].component, removed.contains(component.parent) {
                    removed.insert(entries[later].id)
                    indices.append(later)
                }
            }
            indices.sort()
        }
        let gone = indices.map { entries[$0] }
        if indices.count == 1 { entries.remove(at: first) } else { entries.removeAll { removed.contains($0.id) } }
        parents.subtract(removed)
        positions = nil
        for entry in gone { entry.stage.cancel() }
        return gone
    }

    /// What the back button closes: the top modal, or else the top of the stack.
    package var backTarget: Placement {
        entries.contains { $0.placement == .modal } ? .modal : .push
    }

    package mutating func index(of id: String) -> Int? {
        if positions == nil {
            positions = Dictionary(
                entries.indices.map { (entries[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
        }
        return positions?[id]
    }

    /// The index of the entry holding `stage` (the same object).
    package func index(of stage: Stage) -> Int? {
        entries.firstIndex { $0.stage === stage }
    }

    package subscript(index: Int) -> Entry {
        // Borrowed, not copied: a flush reads every entry of a session that may hold
        // a thousand components.
        _read { yield entries[index] }
        _modify { yield &entries[index] }
    }

    package var indices: Range<Int> { entries.indices }
    package var isEmpty: Bool { entries.isEmpty }
    package var count: Int { entries.count }
}
