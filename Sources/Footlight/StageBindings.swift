import FootlightJSON

/// What a stage binds, as its template must name it: a read-only description for
/// checking a scene against its page with no browser (FootlightTesting's
/// `SceneTester.checkBindings`, and a development server at start).
///
/// Slots and events are known once bound, whether or not a value came yet; a list's
/// rows' members, and the components of a list's rows, are known from the rows the
/// document holds when it is described.
public struct StageBindings: Sendable, Equatable {
    /// The template's name (``Stage/name``).
    public let template: String
    /// The slots of the view document the stage feeds (``Stage/bind(_:to:)``, keyed
    /// collections and lists of components included), sorted.
    public let slots: [String]
    /// The events the stage accepts from the page, and those it declares the page's
    /// alone (``Stage/on(_:runs:)``), sorted.
    public let events: [String]
    /// The `data-component` hosts the stage places components at, or binds lists of
    /// components to, sorted.
    public let componentHosts: [String]
    /// The hooks the stage pushes messages to (``Stage/push(_:to:)``), sorted.
    public let hooks: [String]
    /// The view document when described: its lists' rows tell their members.
    public let document: JSON
    /// The components placed in the stage when described, in the order placed.
    public let components: [StageBindings]
}

extension Stage {
    /// What this stage binds, and its components (see ``StageBindings``).
    public var bindings: StageBindings {
        let placed = placedComponents
        return StageBindings(
            template: name, slots: declared.slots.sorted(),
            events: Set(handlers.keys).union(eventOptions.keys).sorted(),
            componentHosts: Set(declared.componentHosts).union(placed.map(\.host.name)).sorted(),
            hooks: declared.hooks.sorted(), document: document, components: placed.map(\.stage.bindings))
    }
}

/// The names a stage was bound with: a few per stage, so arrays (a stage is small, and
/// there may be a hundred thousand).
struct DeclaredNames {
    private(set) var slots: [String] = []
    private(set) var componentHosts: [String] = []
    private(set) var hooks: [String] = []

    mutating func add(slot: String) {
        if !slots.contains(slot) { slots.append(slot) }
    }

    mutating func add(componentHost: String) {
        if !componentHosts.contains(componentHost) { componentHosts.append(componentHost) }
    }

    mutating func add(hook: String) {
        if !hooks.contains(hook) { hooks.append(hook) }
    }
}
