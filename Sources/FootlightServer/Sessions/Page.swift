import Footlight
import FootlightJSON

/// What one session's page shows, as the server keeps it: the stages mounted (roots,
/// the navigation stack, modals and their components) with what the page was last
/// sent of each, and the structural changes and client commands not yet sent.
///
/// It holds the app's ``Stage`` objects but runs no app code; its changes become
/// messages in ``pendingMessages(numbering:)``, a step of the session's flush.
package struct Page {
    /// What the client was last sent for a stage.
    package struct Sent {
        /// The document as of the last message generated for this stage, without its
        /// keyed collections (``Stage/valueDocument``).
        var document: JSON
        var dirty: Bool
        /// The document title the stage last set (a client command): a page that lost its
        /// documents (a reload) gets it again after the stage's mount.
        var title: String?
    }

    /// A structural change not yet sent. Mounts and unmounts of one stage cancel out,
    /// so the list is bounded by the number of stages (plus the opens and runs bounded
    /// below).
    enum Command {
        case mount(String)
        case unmount(String)
        case open(String)
        case run(String, [ClientCommand])
    }

    /// The event name the page sends for the browser's back button.
    package static let backEvent = Wire.backEvent
    /// The most open-URL commands waiting for the client.
    static let maximumPendingOpens = 8
    /// The most batches of client commands waiting for the client.
    static let maximumPendingRuns = 32

    /// The most stages shown at once, components included.
    let maximumStages: Int
    /// Mounted stages in the order the page stacks them.
    package internal(set) var stages = StageStack<Sent>()
    var commands: [Command] = []
    /// Components not shown because the page showed ``maximumStages``.
    private var refusedComponents = 0

    package init(maximumStages: Int) {
        self.maximumStages = maximumStages
    }

    // MARK: Stages

    /// Mounts `stage` at `url`, or at its Director's address when it has one; returns its
    /// instance id.
    package mutating func present(_ stage: Stage, placement: Placement, url: String?) -> String {
        let id = stages.add(
            stage, placement: placement, url: stage.address?.url ?? url,
            extra: Sent(document: stage.valueDocument, dirty: false))
        commands.append(.mount(id))
        return id
    }

    /// Mounts `component`, placed by the stage `parent` at `host`; returns its instance
    /// id, or no id when `parent` is not shown (it was removed in the same turn) or the
    /// page shows ``maximumStages`` already (then a log line, the first time and every
    /// thousandth after it).
    package mutating func present(_ component: Stage, in parent: String, at host: ComponentHost) -> (
        id: String?, log: ProtocolAction?
    ) {
        guard stages.count < maximumStages else {
            refusedComponents += 1
            guard refusedComponents % 1000 == 1 else { return (nil, nil) }
            let message =
                "component \"\(component.name)\" at \(host) of stage \"\(parent)\" not shown: the session shows "
                + "\(stages.count) stages, its limit (SessionLimits.maximumStages); \(refusedComponents) refused so far"
            return (nil, .log(.error, message))
        }
        let id = stages.add(
            component, in: parent, at: host, extra: Sent(document: component.valueDocument, dirty: false))
        if let id { commands.append(.mount(id)) }
        return (id, nil)
    }

    /// Removes the top stage with `placement`, if any, with its components (their
    /// stages cancelled). Returns whether the page changed.
    package mutating func removeTop(_ placement: Placement) -> Bool {
        unmount(stages.removeTop(placement))
    }

    /// Removes the components `removed` (their parents removed them), with their own
    /// components. Returns whether the page changed.
    package mutating func removeComponents(_ removed: [Stage]) -> Bool {
        unmount(stages.remove(removed))
    }

    /// Tells the page that `entries` are gone, or forgets their mounts it never saw.
    private mutating func unmount(_ entries: [StageStack<Sent>.Entry]) -> Bool {
        guard !entries.isEmpty else { return false }
        // A mount still pending is dropped: the page never saw the stage. One pass for
        // all (a list of components cleared at once).
        let ids = Set(entries.map(\.id))
        var unseen: Set<String> = []
        commands.removeAll { command in
            guard case .mount(let id) = command, ids.contains(id) else { return false }
            unseen.insert(id)
            return true
        }
        // Components first: the page removes them before the element holding them.
        for entry in entries.reversed() where !unseen.contains(entry.id) { commands.append(.unmount(entry.id)) }
        return true
    }

    /// Removes the pushed or modal stage `id` and everything stacked above it. Returns
    /// whether the page changed.
    package mutating func back(from id: String) -> Bool {
        guard let index = stages.index(of: id), stages[index].placement != .root, !stages[index].isComponent else {
            return false
        }
        var changed = false
        while let top = stages.entries.last(where: { !$0.isComponent }), stages.index(of: id) != nil {
            changed = removeTop(top.placement) || changed
            if top.id == id { break }
        }
        return changed
    }

    /// Removes every stage: modals, then the stack, then the roots. Returns whether the
    /// page changed.
    package mutating func removeAll() -> Bool {
        var changed = false
        for placement in [Placement.modal, .push, .root] {
            while stages.entries.contains(where: { $0.placement == placement && !$0.isComponent }) {
                changed = removeTop(placement) || changed
            }
        }
        return changed
    }

    /// The session ended: every stage is cancelled and nothing more is sent.
    package mutating func close() {
        for entry in stages.entries { entry.stage.cancel() }
        stages = StageStack()
        commands.removeAll()
    }

    /// The index of the stage whose address the address bar shows, if that stage takes
    /// addresses (``Stage/onAddress(send:)``): the top pushed stage, or with none pushed,
    /// the last root that takes them.
    package func addressedTop() -> Int? {
        let entries = stages.entries
        if let pushed = entries.lastIndex(where: { $0.placement == .push && !$0.isComponent }) {
            return entries[pushed].stage.takesAddresses ? pushed : nil
        }
        return entries.lastIndex { $0.placement == .root && !$0.isComponent && $0.stage.takesAddresses }
    }

    /// The visitor went to `address` in the stage at `index` (Back, Forward, a rebuilt
    /// page's address): the page shows it already. The stage is diffed at the next flush,
    /// so that its address goes back to the page if its Director shows another.
    package mutating func went(to address: Address, at index: Int) {
        guard !stages[index].isComponent else { return }
        stages[index].url = address.url
        stages[index].extra.dirty = true
    }

    /// A slot of stage `id` changed. Returns whether the stage is shown.
    package mutating func stageChanged(_ id: String) -> Bool {
        guard let index = stages.index(of: id) else { return false }
        stages[index].extra.dirty = true
        return true
    }

    // MARK: Commands

    /// Opens an external URL in the page (at most 8 wait for the client). Returns nil
    /// when it is queued, else the log line saying it was dropped.
    package mutating func open(url: String) -> ProtocolAction? {
        let pendingOpens = commands.filter { if case .open = $0 { true } else { false } }.count
        guard pendingOpens < Self.maximumPendingOpens else {
            return .log(.notice, "dropped an open-URL command: 8 are already waiting for the client")
        }
        commands.append(.open(url))
        return nil
    }

    /// Client commands for stage `id` (at most 32 batches wait for the client; the
    /// oldest go first: they are moments, not state). Returns whether they were queued,
    /// and the log line when an older batch was dropped for them.
    package mutating func run(_ batch: [ClientCommand], in id: String) -> (queued: Bool, log: ProtocolAction?) {
        guard stages.index(of: id) != nil, !batch.isEmpty else { return (false, nil) }
        var log: ProtocolAction?
        let isRun: (Command) -> Bool = { if case .run = $0 { true } else { false } }
        if commands.filter(isRun).count >= Self.maximumPendingRuns, let oldest = commands.firstIndex(where: isRun) {
            commands.remove(at: oldest)
            log = .log(.notice, "dropped client commands: 32 batches are already waiting for the client")
        }
        commands.append(.run(id, batch))
        return (true, log)
    }
}
