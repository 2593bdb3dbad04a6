import Footlight
import FootlightJSON

/// The protocol bookkeeping of one session, as a value: feed it what happened, and it
/// returns the ``SessionAction``s its driver carries out.
///
/// It owns the sequence numbers, the replay buffer, acknowledgements in both
/// directions, exactly-once consumption of event numbers, refusals and their errors,
/// backpressure, and the stack of mounted stages with the navigation commands not yet
/// sent. It does no I/O and runs no app code: a Director runs only when its driver
/// carries out ``SessionAction/deliver(_:to:)``, ``SessionAction/restore(name:value:to:)``
/// or ``SessionAction/startApp(path:modals:)``.
/// The live server (``SessionDriver``) and `SceneTester` drive the same machine.
package struct SessionState {
    /// The bounds and policies the machine applies.
    package struct Configuration: Sendable {
        package var limits: SessionLimits
        /// Whether refusals tell the client their details (else only the log has them).
        package var sendsErrorDetails: Bool
        /// The largest message the server reads, told to the client in `joined` (`max`)
        /// so that the page refuses a larger event at its control instead of sending it.
        package var maximumMessageBytes: Int
        /// Patch operations written once for the sessions that send the same ones; one
        /// serves a whole server.
        package var sharedOperations: SharedOperations

        package init(
            limits: SessionLimits = SessionLimits(), sendsErrorDetails: Bool = false,
            maximumMessageBytes: Int = ServerConfiguration.defaultMaximumMessageBytes,
            sharedOperations: SharedOperations = SharedOperations()
        ) {
            self.limits = limits
            self.sendsErrorDetails = sendsErrorDetails
            self.maximumMessageBytes = maximumMessageBytes
            self.sharedOperations = sharedOperations
        }
    }

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
    /// so the list is bounded by the number of stages (plus at most 8 opens).
    private enum Command {
        case mount(String)
        case unmount(String)
        case open(String)
        case run(String, [ClientCommand])
    }

    /// The event name the page sends for the browser's back button.
    package static let backEvent = "@back"
    /// The most open-URL commands waiting for the client.
    static let maximumPendingOpens = 8
    /// The most batches of client commands waiting for the client.
    static let maximumPendingRuns = 32

    package let token: String
    let configuration: Configuration
    private var limits: SessionLimits { configuration.limits }

    /// Mounted stages in the order the page stacks them.
    package private(set) var stages = StageStack<Sent>()
    private var commands: [Command] = []
    /// Components not shown because the session showed ``SessionLimits/maximumStages``.
    private var refusedComponents = 0
    package private(set) var started = false
    package private(set) var isEnded = false
    /// The connection the session writes to, if one is attached.
    package private(set) var connection: ConnectionID?
    /// The next server sequence number.
    package private(set) var nextSeq: Int64 = 1
    private var replay: ReplayBuffer
    /// The highest client event number consumed (applied or refused).
    package private(set) var lastEvent: Int64 = 0
    /// Event number to acknowledge with the next output, if any.
    private var pendingAck: Int64?
    /// Errors waiting for the next flush (bounded by ``SessionLimits/pendingAdvisories``).
    private var advisories: [ProtocolError] = []
    package private(set) var flushScheduled = false
    /// Output held back until the socket drains.
    package private(set) var awaitingDrain = false
    private var bucket: TokenBucket
    /// Messages that could not be encoded since the last output, for the log.
    private var encodingFailures: [String] = []

    /// A session that has not started yet; `now` starts its event rate limit.
    package init(token: String, configuration: Configuration, now: ContinuousClock.Instant) {
        self.token = token
        self.configuration = configuration
        replay = ReplayBuffer(
            maximumCount: configuration.limits.replayMessages, maximumBytes: configuration.limits.replayBytes)
        bucket = TokenBucket(
            rate: configuration.limits.eventsPerSecond, burst: configuration.limits.eventBurst, now: now)
    }

    /// Sequenced messages held for a replay, and their bytes.
    package var replayCount: Int { replay.count }
    package var replayBytes: Int { replay.bytes }

    // MARK: Connections

    /// A connection joins: a new session (`resumeAfter` nil) or a resume of this one
    /// having applied every message up to `resumeAfter`. A new session given `restore`
    /// (what the page showed when its old session was lost) is rebuilt from it.
    package mutating func attach(
        _ id: ConnectionID, resumeAfter lastSeq: Int64?, path: String?, restore: ClientMessage.Restore? = nil
    ) -> [SessionAction] {
        guard !isEnded else {
            return [
                .send(encode([.error(ProtocolError(.unknownSession, "the session has ended; reload the page"))])),
                .close(id, code: 4001, reason: "session ended"),
            ]
        }
        var actions: [SessionAction] = []
        if let previous = connection, previous != id {
            actions.append(.log(.info, "a newer connection resumed the session; closing the older one"))
            actions.append(.close(previous, code: 4000, reason: "replaced by a newer connection"))
        }
        connection = id
        awaitingDrain = false
        var rebuilding = false
        if !started {
            started = true
            rebuilding = restore != nil
            pendingRestore = restore
            let modals = restore?.stages.filter { $0.placement == .modal }.map(\.template) ?? []
            actions.append(.startApp(path: path ?? "/", modals: modals))
        }
        let lastGenerated = nextSeq - 1
        var resumed = false
        var replayed: [WireMessage]?
        if let seq = lastSeq {
            resumed = true
            if seq <= lastGenerated {
                replayed = replay.messages(after: seq)
                if replayed == nil {
                    actions.append(.log(.info, "resumed after seq \(seq), which is no longer held; sending a snapshot"))
                }
            } else {
                actions.append(
                    .log(.notice, "client claims seq \(seq) but only \(lastGenerated) were sent; sending a snapshot"))
            }
        }
        // The app starts before the first mounts are taken, so a new session's page
        // arrives whole; the driver runs it, then flushes.
        actions.append(.scheduleFlush)
        flushScheduled = true
        joining = Joining(resumed: resumed, replayed: replayed, rebuilt: rebuilding ? [] : nil)
        return actions
    }

    /// A join waiting for the first flush, which sends `joined` with the whole page.
    struct Joining {
        let resumed: Bool
        /// The missed messages, or nil for a snapshot (or a new session).
        let replayed: [WireMessage]?
        /// For a rebuild, each restored stage's new instance id (nil: not rebuilt).
        var rebuilt: [String?]?
    }
    var joining: Joining?
    /// What the page showed, until the app has started and it is matched.
    var pendingRestore: ClientMessage.Restore?
    /// The connection closed; the state is kept for a resume.
    package mutating func detach(_ id: ConnectionID) -> [SessionAction] {
        guard connection == id else { return [] }
        connection = nil
        joining = nil
        awaitingDrain = false
        return []
    }

    /// Ends the session for good: stages are cancelled; a connected client gets `bye`
    /// and a close with `closeCode`.
    package mutating func end(reason: String, closeCode: UInt16 = 1001) -> [SessionAction] {
        guard !isEnded else { return [] }
        isEnded = true
        for entry in stages.entries { entry.stage.cancel() }
        stages = StageStack()
        commands.removeAll()
        replay.reset(floor: nextSeq - 1)
        flushScheduled = false
        var actions: [SessionAction] = [.log(.debug, "session ended: \(reason)")]
        if let connection {
            actions.append(.send(encode([.bye(reason: reason)])))
            actions.append(.close(connection, code: closeCode, reason: reason))
        }
        connection = nil
        return actions
    }

    /// A Director failed: the session is beyond repair. Its page gets the error and a
    /// close asking it to reload; the registry forgets it.
    mutating func fail(_ failure: ProtocolError) -> [SessionAction] {
        var actions: [SessionAction] = [.log(.error, "ending the session: \(failure)"), .ended]
        if connection != nil {
            actions.append(
                .send(encode([.error(configuration.sendsErrorDetails ? failure : failure.withoutDetails())])))
        }
        return actions + end(reason: "the session failed; reload the page", closeCode: 4001)
    }

    // MARK: Client messages

    /// A user event from the page, numbered by the client.
    package mutating func receive(_ event: ClientMessage.Event, now: ContinuousClock.Instant) -> [SessionAction] {
        guard !isEnded else { return [] }
        if event.number <= lastEvent {
            // A re-send after a resume: already consumed, acknowledge again only.
            pendingAck = max(pendingAck ?? 0, event.number)
            return scheduleFlush()
        }
        guard event.number == lastEvent + 1 else {
            return refuse(
                ProtocolError(
                    .eventGap, "expected event \(lastEvent + 1), got \(event.number)", eventNumber: event.number))
        }
        lastEvent = event.number
        pendingAck = event.number
        guard bucket.take(now: now) else {
            return refuse(
                ProtocolError(
                    .rateLimited, "more than \(Int(limits.eventsPerSecond)) events per second; event refused",
                    eventNumber: event.number))
        }
        if event.name == Self.backEvent {
            // The browser's back button, for the stage the page had on top. If that stage
            // is already gone (the server popped it meanwhile), there is nothing to do.
            return back(from: event.stage) + scheduleFlush()
        }
        guard let index = stages.index(of: event.stage) else {
            // At most 8 named: a page of a thousand components would make each refusal 10 KB.
            var names = stages.entries.prefix(8).map { "\"\($0.id)\"" }.joined(separator: ", ")
            if stages.count > 8 { names += " and \(stages.count - 8) more" }
            return refuse(
                ProtocolError(
                    .unknownStage,
                    "no stage \"\(event.stage)\" is mounted (mounted: \(names.isEmpty ? "none" : names))",
                    eventNumber: event.number))
        }
        let stage = stages[index].stage
        guard Self.namesComponent(event.name) else { return [.deliver(event, to: stage)] }
        // A component's kept value, which a page sends again to a rebuilt session named by
        // the hosts down to the component ("form/email"), as its restore names it.
        guard let (recipient, name) = Self.recoverableEvent(event.name, of: stage) else {
            return refuse(
                ProtocolError(
                    .unknownEvent,
                    "stage \"\(stage.name)\" has no component with a recoverable event \"\(event.name)\"",
                    eventNumber: event.number))
        }
        let renamed = ClientMessage.Event(number: event.number, stage: event.stage, name: name, value: event.value)
        return [.deliver(renamed, to: recipient)]
    }

    /// Whether an event's name goes down to a component ("form/email"): a scan of its
    /// bytes in place, on every event (callgrind, the counter's click: about 80
    /// instructions, against about 320 for the `UTF8View`'s own `contains`, which walks
    /// an iterator).
    static func namesComponent(_ name: String) -> Bool {
        let slash = UInt8(ascii: "/")
        return name.utf8.withContiguousStorageIfAvailable { $0.contains(slash) } ?? name.utf8.contains(slash)
    }

    /// What came of a delivered event: nil when the stage took it.
    package mutating func eventHandled(_ event: ClientMessage.Event, error: StageEventError?) -> [SessionAction] {
        guard let error else { return scheduleFlush() }
        switch error.kind {
        case .unknownEvent: return refuse(ProtocolError(.unknownEvent, error.message, eventNumber: event.number))
        case .badValue: return refuse(ProtocolError(.badValue, error.message, eventNumber: event.number))
        case .directorFailed: return fail(ProtocolError(.directorFailed, error.message, eventNumber: event.number))
        }
    }

    /// Takes one event's worth of the rate limit; false when the session is over it.
    mutating func takeEventToken(now: ContinuousClock.Instant) -> Bool {
        bucket.take(now: now)
    }

    /// The client applied every message up to `seq`.
    package mutating func acknowledge(seq: Int64) -> [SessionAction] {
        guard seq < nextSeq else {
            return refuse(ProtocolError(.badAck, "acknowledged seq \(seq), but the last one sent is \(nextSeq - 1)"))
        }
        replay.acknowledge(through: seq)
        return []
    }

    /// A binding error the page reported; reports share the event rate limit.
    package mutating func report(stage: String, message: String, now: ContinuousClock.Instant) -> [SessionAction] {
        guard bucket.take(now: now) else { return [] }
        return [.log(.warning, "the page reports a binding error in stage \"\(stage)\": \(message)")]
    }

    /// A slot of a stage got a value it cannot hold.
    package mutating func slotFailed(_ message: String) -> [SessionAction] {
        [.log(.error, message)] + refuse(ProtocolError(.badSlotValue, message))
    }

    /// Queues an error for the client. A run of events refused for the same reason (a
    /// burst over the rate limit) becomes one error for the run, so none goes unreported.
    mutating func refuse(_ detailed: ProtocolError) -> [SessionAction] {
        var actions: [SessionAction] = []
        if detailed.code != .badSlotValue { actions.append(.log(.info, "refused client message: \(detailed)")) }
        let error = configuration.sendsErrorDetails ? detailed : detailed.withoutDetails()
        if let previous = advisories.last, let merged = previous.merged(with: error) {
            advisories[advisories.count - 1] = merged
        } else {
            if advisories.count >= limits.pendingAdvisories {
                advisories.removeFirst()
                actions.append(.log(.notice, "dropped an advisory error for a slow client"))
            }
            advisories.append(error)
        }
        return actions + scheduleFlush()
    }

    // MARK: Stages and navigation

    /// Mounts `stage`; returns its instance id, which ``stageChanged(_:)`` takes.
    package mutating func present(_ stage: Stage, placement: Placement, url: String?) -> (String, [SessionAction]) {
        let id = stages.add(
            stage, placement: placement, url: url, extra: Sent(document: stage.valueDocument, dirty: false))
        commands.append(.mount(id))
        return (id, scheduleFlush())
    }

    /// Mounts `component`, placed by the stage `parent` at `host`; returns its instance
    /// id, or no id when `parent` is not shown (it was removed in the same turn) or the
    /// session shows ``SessionLimits/maximumStages`` already (then a log line, the first
    /// time and every thousandth after it).
    package mutating func present(_ component: Stage, in parent: String, at host: ComponentHost) -> (
        id: String?, actions: [SessionAction]
    ) {
        guard stages.count < limits.maximumStages else {
            refusedComponents += 1
            guard refusedComponents % 1000 == 1 else { return (nil, []) }
            let message =
                "component \"\(component.name)\" at \(host) of stage \"\(parent)\" not shown: the session shows "
                + "\(stages.count) stages, its limit (SessionLimits.maximumStages); \(refusedComponents) refused so far"
            return (nil, [.log(.error, message)])
        }
        guard
            let id = stages.add(
                component, in: parent, at: host, extra: Sent(document: component.valueDocument, dirty: false))
        else { return (nil, []) }
        commands.append(.mount(id))
        return (id, scheduleFlush())
    }

    /// Removes the top stage with `placement`, if any, with its components (their
    /// stages cancelled).
    package mutating func removeTop(_ placement: Placement) -> [SessionAction] {
        unmount(stages.removeTop(placement))
    }

    /// Removes the components `removed` (their parents removed them), with their own
    /// components.
    package mutating func removeComponents(_ removed: [Stage]) -> [SessionAction] {
        unmount(stages.remove(removed))
    }

    /// Tells the page that `entries` are gone, or forgets their mounts it never saw.
    private mutating func unmount(_ entries: [StageStack<Sent>.Entry]) -> [SessionAction] {
        guard !entries.isEmpty else { return [] }
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
        return scheduleFlush()
    }

    /// Removes the pushed or modal stage `id` and everything stacked above it.
    package mutating func back(from id: String) -> [SessionAction] {
        guard let index = stages.index(of: id), stages[index].placement != .root, !stages[index].isComponent else {
            return []
        }
        var actions: [SessionAction] = []
        while let top = stages.entries.last(where: { !$0.isComponent }), stages.index(of: id) != nil {
            actions += removeTop(top.placement)
            if top.id == id { break }
        }
        return actions
    }

    /// Removes every stage: modals, then the stack, then the roots.
    package mutating func removeAll() -> [SessionAction] {
        var actions: [SessionAction] = []
        for placement in [Placement.modal, .push, .root] {
            while stages.entries.contains(where: { $0.placement == placement && !$0.isComponent }) {
                actions += removeTop(placement)
            }
        }
        return actions
    }

    /// Opens an external URL in the page (at most 8 wait for the client).
    package mutating func open(url: String) -> [SessionAction] {
        let pendingOpens = commands.filter { if case .open = $0 { true } else { false } }.count
        guard pendingOpens < Self.maximumPendingOpens else {
            return [.log(.notice, "dropped an open-URL command: 8 are already waiting for the client")]
        }
        commands.append(.open(url))
        return scheduleFlush()
    }

    /// Client commands for stage `id` (at most 32 batches wait for the client; the
    /// oldest go first: they are moments, not state).
    package mutating func run(_ batch: [ClientCommand], in id: String) -> [SessionAction] {
        guard stages.index(of: id) != nil, !batch.isEmpty else { return [] }
        var actions: [SessionAction] = []
        let isRun: (Command) -> Bool = { if case .run = $0 { true } else { false } }
        if commands.filter(isRun).count >= Self.maximumPendingRuns, let oldest = commands.firstIndex(where: isRun) {
            commands.remove(at: oldest)
            actions.append(.log(.notice, "dropped client commands: 32 batches are already waiting for the client"))
        }
        commands.append(.run(id, batch))
        return actions + scheduleFlush()
    }

    /// A slot of stage `id` changed.
    package mutating func stageChanged(_ id: String) -> [SessionAction] {
        guard let index = stages.index(of: id) else { return [] }
        stages[index].extra.dirty = true
        return scheduleFlush()
    }

    mutating func scheduleFlush() -> [SessionAction] {
        guard !flushScheduled, !isEnded else { return [] }
        flushScheduled = true
        return [.scheduleFlush]
    }

    // MARK: Output

    /// The socket wrote everything queued: held-back changes may go now.
    package mutating func drained() -> [SessionAction] {
        guard awaitingDrain else { return [] }
        awaitingDrain = false
        flushScheduled = true
        return [.scheduleFlush]
    }

    /// The end of a turn: diffs every changed stage against what the client was last
    /// sent and sends the patches, commands, errors and acknowledgement, unless the
    /// socket is behind (`unsentBytes` over the high-water mark): then the changes
    /// wait and are coalesced into one diff per stage once it drains.
    package mutating func flush(unsentBytes: Int) -> [SessionAction] {
        flushScheduled = false
        guard connection != nil, !isEnded else { return [] }
        if let joining {
            self.joining = nil
            let messages = joinMessages(joining)
            return [.send(messages)] + takeEncodingFailures()
        }
        if unsentBytes > limits.outboxHighWater {
            guard !awaitingDrain else { return [] }
            awaitingDrain = true
            return [.awaitDrain]
        }
        let messages = pendingMessages()
        return messages.isEmpty ? [] : [.send(encode(messages))] + takeEncodingFailures()
    }

    private mutating func takeEncodingFailures() -> [SessionAction] {
        defer { encodingFailures.removeAll() }
        return encodingFailures.map { .log(.error, $0) }
    }

    /// `joined`, then the missed messages or a mount per stage, then newer changes.
    private mutating func joinMessages(_ joining: Joining) -> [WireMessage] {
        let mounts = joining.replayed == nil ? snapshot() : []
        let hello = ServerMessage.joined(
            token: token, resumed: joining.resumed, snapshot: joining.resumed && joining.replayed == nil,
            events: lastEvent, mounts: mounts.count, maximumMessageBytes: configuration.maximumMessageBytes,
            rebuilt: joining.rebuilt)
        let titles = joining.replayed == nil ? titlesAgain() : []
        return encode([hello]) + (joining.replayed ?? []) + encode(mounts + titles + pendingMessages())
    }

    /// The titles stages set, for a page that got their mounts again.
    private mutating func titlesAgain() -> [ServerMessage] {
        stages.entries.compactMap { entry in
            entry.extra.title.map { .run(seq: takeSeq(), stage: entry.id, commands: [.setTitle($0)]) }
        }
    }

    /// Full mounts of every stage, which become what the client was last sent. Opens and
    /// client commands still waiting follow them (the commands of the stages the app
    /// showed as it started: a lot's title and focus).
    private mutating func snapshot() -> [ServerMessage] {
        replay.reset(floor: nextSeq - 1)
        commands.removeAll {
            switch $0 {
            case .open, .run: false
            case .mount, .unmount: true
            }
        }
        return stages.indices.map { mountMessage($0) }
    }

    private mutating func mountMessage(_ index: Int) -> ServerMessage {
        let stage = stages[index].stage
        let document = stage.document
        stage.discardRowOperations()
        stages[index].extra.document = stage.valueDocument
        stages[index].extra.dirty = false
        let entry = stages[index]
        return .mount(
            ServerMessage.Mount(
                seq: takeSeq(), stage: entry.id, template: entry.stage.name, document: document,
                placement: entry.placement, url: entry.url, events: entry.stage.eventOptionsJSON,
                component: entry.component))
    }

    /// Commands, patches of changed stages, the stages' client commands (after the
    /// patches, so that they find the elements those make: a hook in a new row, a field
    /// just shown), errors, and the acknowledgement. A new component's mount goes in page
    /// order with the patches, after its parent's: the page finds the element that
    /// holds it (a new row's) in the document as patched.
    private mutating func pendingMessages() -> [ServerMessage] {
        var messages: [ServerMessage] = []
        var runs: [(id: String, commands: [ClientCommand])] = []
        var componentMounts: Set<String> = []
        for command in commands {
            switch command {
            case .mount(let id):
                guard let index = stages.index(of: id) else { continue }
                if stages[index].isComponent {
                    componentMounts.insert(id)
                } else {
                    messages.append(mountMessage(index))
                }
            case .unmount(let id):
                messages.append(.unmount(seq: takeSeq(), stage: id))
            case .open(let url):
                messages.append(.open(seq: takeSeq(), url: url))
            case .run(let id, let commands):
                runs.append((id, commands))
            }
        }
        commands.removeAll()
        for index in stages.indices {
            if !componentMounts.isEmpty, componentMounts.contains(stages[index].id) {
                messages.append(mountMessage(index))
                continue
            }
            guard stages[index].extra.dirty else { continue }
            let stage = stages[index].stage
            var patch = JSONPatch.diff(from: stages[index].extra.document, to: stage.valueDocument)
            // Keyed collections are not in the diff: their changes come as operations.
            // (Appended only when there are some: appending copies a diff's operations
            // that other sessions share, ``SharedDiffs``.)
            let rowOperations = stage.takeRowOperations()
            if !rowOperations.isEmpty { patch.operations += rowOperations }
            stages[index].extra.document = stage.valueDocument
            stages[index].extra.dirty = false
            if !patch.isEmpty {
                messages.append(.patch(seq: takeSeq(), stage: stages[index].id, patch: patch, ack: nil))
            }
        }
        for (id, commands) in runs {
            // A stage removed in the same turn takes its commands with it.
            guard let index = stages.index(of: id) else { continue }
            messages.append(.run(seq: takeSeq(), stage: id, commands: commands))
            for case .setTitle(let title) in commands { stages[index].extra.title = title }
        }
        messages += advisories.map(ServerMessage.error)
        advisories.removeAll()
        if let ack = pendingAck {
            pendingAck = nil
            // The acknowledgement rides on the last patch when there is one (client
            // commands after it, a hook's message or a focus, need no frame of their own).
            if let last = messages.lastIndex(where: { if case .patch = $0 { true } else { false } }),
                case .patch(let seq, let stage, let patch, nil) = messages[last]
            {
                messages[last] = .patch(seq: seq, stage: stage, patch: patch, ack: ack)
            } else {
                messages.append(.ack(number: ack))
            }
        }
        return messages
    }

    private mutating func takeSeq() -> Int64 {
        defer { nextSeq += 1 }
        return nextSeq
    }

    /// Encodes messages; sequenced ones also go into the replay buffer. A message that
    /// cannot be encoded becomes an `internal-error` (the details are logged by the
    /// driver from the error's text).
    private mutating func encode(_ messages: [ServerMessage]) -> [WireMessage] {
        var result: [WireMessage] = []
        result.reserveCapacity(messages.count)
        for message in messages {
            do {
                let encoded = WireMessage(bytes: try message.encoded(sharing: configuration.sharedOperations))
                if let seq = message.seq { replay.append(seq: seq, message: encoded) }
                result.append(encoded)
            } catch {
                encodingFailures.append("could not encode a \(message.json["t"]?.stringValue ?? "?") message: \(error)")
                let failure = ServerMessage.error(ProtocolError(.internal, ProtocolError.Code.internal.summary))
                if let bytes = try? failure.encoded() { result.append(WireMessage(bytes: bytes)) }
            }
        }
        return result
    }
}
