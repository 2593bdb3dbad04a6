import FootlightJSON

/// Components: stages placed inside a stage's template, each with its own Director,
/// template, document and events (see "Components" in the Bindings article).
extension Stage {
    /// Places `component` in the element of this stage's template that names `host`
    /// (`<div data-component="form">`), replacing the component placed there before.
    /// Place a new stage each time: one removed is cancelled for good.
    ///
    /// The component is a stage of its own: its Director feeds its own document, which
    /// is diffed on its own; events from its elements go to it alone; it is mounted with
    /// this stage and unmounted with it. Make it with the scene's context, as any stage:
    ///
    /// ```swift
    /// stage.place(AccountFormScene(mode: .signUp).makeStage(context: context), at: "form")
    /// ```
    public func place(_ component: Stage, at host: String) {
        place(component, at: ComponentHost(name: host))
    }

    /// Removes the component placed at `host`, if any: it is cancelled and unmounted.
    public func removeComponent(at host: String) {
        removeComponent(at: ComponentHost(name: host))
    }

    /// Feeds the keyed collection in slot `slot` from `changes`, with one component per
    /// row: `make` builds the component of a new row from a publisher of that row's
    /// values (the row at once, then each update), and the component sits in the element
    /// of the row that names `component` (`data-component`; the row's own element when it
    /// names it).
    ///
    /// The slot's rows hold only their ids (`{"id": …}`); what a row shows comes from
    /// its component's document. A moved row keeps its component, an updated row's
    /// component gets the new value, and a removed row's component is unmounted.
    /// A list of components must be a slot of the stage's document, not a list inside a
    /// row of another list.
    public func bind<Output: Publisher, Row>(
        _ changes: Output, to slot: String, component: String,
        make: @escaping (_ row: AnyPublisher<Row, Never>) -> Stage
    ) where Output.Output == [RowChange<Row>], Output.Failure == Never {
        addKeyedSlot(slot)
        declared.add(componentHost: component)
        let rows = ComponentRows(host: component, make: make)
        keep(
            changes.sink { [weak self] changes in
                guard let self else { return }
                // The components the changes remove go to the session together.
                let outermost = removedComponents == nil
                if outermost { removedComponents = [] }
                let keys = changes.compactMap { rows.apply($0, in: self) }
                if outermost {
                    reportRemovedComponents()
                    removedComponents = nil
                }
                change(slot, by: keys)
            })
    }

    func place(_ component: Stage, at host: ComponentHost) {
        precondition(component !== self, "a stage cannot be its own component")
        // Placed there already: nothing to do (removing it first would cancel it).
        guard components[host] !== component else { return }
        removeComponent(at: host)
        // Those removed before it leave first: they make room (SessionLimits.maximumStages).
        reportRemovedComponents()
        placements += 1
        component.placement = placements
        components[host] = component
        self.host?.stagePlaced(component, at: host)
    }

    /// The components placed in the stage, in the order they were placed.
    package var placedComponents: [(host: ComponentHost, stage: Stage)] {
        components.sorted { $0.value.placement < $1.value.placement }.map { ($0.key, $0.value) }
    }

    func removeComponent(at host: ComponentHost) {
        guard let component = components.removeValue(forKey: host) else { return }
        component.cancel()
        if removedComponents != nil {
            removedComponents?.append(component)
        } else {
            self.host?.stageRemoved([component])
        }
    }

    /// Reports the components removed while a list's changes apply, if any.
    private func reportRemovedComponents() {
        guard let removed = removedComponents, !removed.isEmpty else { return }
        removedComponents = []
        host?.stageRemoved(removed)
    }
}

/// A row of a list of components, as its list holds it: its id alone.
private struct ComponentRowKey: ViewValue, Identifiable {
    let id: String
    var viewJSON: JSON { .object(["id": .string(id)]) }
}

/// The components of one list, one per row: each row's latest value, fed to its
/// component, and the changes to the list's ids.
private final class ComponentRows<Row: ViewValue & Identifiable> where Row.ID == String {
    let host: String
    let make: (AnyPublisher<Row, Never>) -> Stage
    private var rows: [String: CurrentValueSubject<Row, Never>] = [:]

    init(host: String, make: @escaping (AnyPublisher<Row, Never>) -> Stage) {
        self.host = host
        self.make = make
    }

    /// Carries out `change` on the components of `stage`; returns the change to the
    /// list of ids, or nil when the ids stay as they are.
    func apply(_ change: RowChange<Row>, in stage: Stage) -> RowChange<ComponentRowKey>? {
        switch change {
        case .insert(let row, let index):
            // A row already there is replaced where it stands: its component gets it.
            guard !send(row) else { return nil }
            add(row, in: stage)
            return .insert(ComponentRowKey(id: row.id), at: index)
        case .update(let row):
            guard !send(row) else { return nil }
            add(row, in: stage)
            return .update(ComponentRowKey(id: row.id))
        case .remove(let id):
            guard rows.removeValue(forKey: id) != nil else { return nil }
            stage.removeComponent(at: ComponentHost(name: host, row: id))
            return .remove(id: id)
        case .move(let id, let index):
            return .move(id: id, to: index)
        case .reset(let new):
            let kept = Set(new.map(\.id))
            for id in rows.keys where !kept.contains(id) {
                rows[id] = nil
                stage.removeComponent(at: ComponentHost(name: host, row: id))
            }
            for row in new where !send(row) { add(row, in: stage) }
            return .reset(new.map { ComponentRowKey(id: $0.id) })
        }
    }

    /// Sends `row` to its component; false when it has none yet.
    private func send(_ row: Row) -> Bool {
        guard let subject = rows[row.id] else { return false }
        subject.send(row)
        return true
    }

    private func add(_ row: Row, in stage: Stage) {
        let subject = CurrentValueSubject<Row, Never>(row)
        rows[row.id] = subject
        stage.place(make(subject.eraseToAnyPublisher()), at: ComponentHost(name: host, row: row.id))
    }
}
