import Dispatch
import Footlight
import FootlightJSON
import Logging

/// One browser tab's live state: its stages, what the client was last sent, the
/// sequence numbers in both directions, and the messages kept for a resume.
///
/// All state is confined to ``queue``: the loop threads post to it, and stages and
/// Directors run on it. A session survives a dropped socket until its registry
/// expires it.
final class Session: @unchecked Sendable {
    // @unchecked: every mutable member below is touched only on `queue`
    // (dispatchPrecondition in debug builds).

    /// The registry's key for the session: 128 random bits as hex.
    let id: String
    /// What the client resumes with: the id and its signature.
    let token: String
    let queue: DispatchQueue
    private let limits: SessionLimits
    /// Whether refusals tell the client their details (else only in the log).
    private let sendsErrorDetails: Bool
    private let logger: Logger
    private let entry: AppEntry
    private weak var registry: SessionRegistry?

    /// What the client was last sent for a stage.
    private struct Sent {
        /// The document as of the last message generated for this stage.
        var document: JSON
        var dirty: Bool
    }
    /// Mounted stages in the order the page stacks them.
    private var mounted = StageStack<Sent>()
    /// Structural changes not yet sent, in order. Mounts and unmounts of one stage
    /// cancel out, so this is bounded by the number of stages (plus a few opens).
    private enum Command {
        case mount(String)
        case unmount(String)
        case open(String)
    }
    private var commands: [Command] = []
    private lazy var context = Context(environment: SessionEnvironment(queue: queue), presenter: self)
    private var started = false
    private var ended = false
    private var nextSeq: Int64 = 1
    private var replay: ReplayBuffer
    /// The highest client event number consumed (applied or refused).
    private var lastEvent: Int64 = 0
    /// Event number to acknowledge with the next output, if any.
    private var pendingAck: Int64?
    private var advisories: [ServerMessage] = []
    private var connection: ConnectionHandle?
    private var flushScheduled = false
    private var bucket: TokenBucket

    init(
        id: String, token: String, limits: SessionLimits, sendsErrorDetails: Bool, logger: Logger,
        entry: @escaping AppEntry, registry: SessionRegistry
    ) {
        self.id = id
        self.token = token
        self.sendsErrorDetails = sendsErrorDetails
        self.limits = limits
        self.entry = entry
        self.registry = registry
        // A serial queue of its own (not a target shared with a concurrent pool): libdispatch
        // runs serial queues on its overcommitting pool, so a Director that blocks its
        // thread does not keep other sessions waiting for one.
        self.queue = DispatchQueue(label: "footlight.session")
        self.replay = ReplayBuffer(maximumCount: limits.replayMessages, maximumBytes: limits.replayBytes)
        self.bucket = TokenBucket(rate: limits.eventsPerSecond, burst: limits.eventBurst, now: .now)
        var logger = logger
        logger[metadataKey: "session"] = "\(id.prefix(8))"
        self.logger = logger
    }

    private func onQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    // MARK: Connections

    /// Attaches a new connection: a fresh join, or a resume after `lastSeq`.
    func attach(_ handle: ConnectionHandle, resumeAfter lastSeq: Int64?, path: String? = nil) {
        onQueue()
        guard !ended else {
            handle.send(frames([.error(ProtocolError(.unknownSession, "the session has ended; reload the page"))]))
            handle.close(code: 4001, reason: "session ended")
            return
        }
        if let previous = connection, previous.id != handle.id {
            logger.info("a newer connection resumed the session; closing the older one")
            previous.setDrainHandler(nil)
            previous.close(code: 4000, reason: "replaced by a newer connection")
        }
        connection = handle
        handle.setDrainHandler { [weak self] in
            guard let self else { return }
            self.queue.async { self.flush() }
        }
        registry?.connected(id)

        if !started {
            started = true
            entry(context, path ?? "/")
        }
        let lastGenerated = nextSeq - 1
        let joined: (resumed: Bool, replayed: [OutboundFrame]?)
        switch lastSeq {
        case nil:
            joined = (false, nil)  // a new session: full mounts
        case let seq? where seq <= lastGenerated:
            joined = (true, replay.frames(after: seq))
            if joined.replayed == nil {
                logger.info("resumed after seq \(seq), which is no longer held; sending a snapshot")
            }
        case let seq?:
            logger.notice("client claims seq \(seq) but only \(lastGenerated) were sent; sending a snapshot")
            joined = (true, nil)
        }
        let mounts = joined.replayed == nil ? snapshot() : []
        let hello = ServerMessage.joined(
            token: token, resumed: joined.resumed, snapshot: joined.resumed && joined.replayed == nil,
            events: lastEvent,
            mounts: mounts.count)
        handle.send(frames([hello]) + (joined.replayed ?? []) + frames(mounts))
        flush()
    }

    /// The connection closed; keep the state for a resume.
    func detach(_ handle: ConnectionHandle) {
        onQueue()
        guard connection?.id == handle.id else { return }
        handle.setDrainHandler(nil)
        connection = nil
        registry?.disconnected(id)
    }

    /// A Director failed: the session is beyond repair. Its page gets the error and a
    /// close asking it to reload; the registry forgets it; other sessions go on.
    private func fail(_ failure: ProtocolError) {
        logger.error("ending the session: \(failure)")
        registry?.remove(id)
        connection?.send(frames([.error(sendsErrorDetails ? failure : failure.withoutDetails())]))
        end(reason: "the session failed; reload the page", closeCode: 4001)
    }

    /// Ends the session for good: stages and Directors are released. The client, if
    /// connected, gets `bye` and a close with `closeCode`.
    func end(reason: String, closeCode: UInt16 = 1001) {
        onQueue()
        guard !ended else { return }
        ended = true
        for entry in mounted.entries { entry.stage.cancel() }
        mounted = StageStack()
        commands.removeAll()
        replay.reset(floor: nextSeq - 1)
        if let connection {
            connection.setDrainHandler(nil)
            connection.send(frames([.bye(reason: reason)]))
            connection.close(code: closeCode, reason: reason)
        }
        connection = nil
        logger.debug("session ended: \(reason)")
    }

    // MARK: Client messages

    func receive(_ event: ClientMessage.Event) {
        onQueue()
        guard !ended else { return }
        if event.number <= lastEvent {
            // A re-send after a resume: already consumed, acknowledge again only.
            pendingAck = max(pendingAck ?? 0, event.number)
            scheduleFlush()
            return
        }
        guard event.number == lastEvent + 1 else {
            refuse(
                ProtocolError(
                    .eventGap, "expected event \(lastEvent + 1), got \(event.number)", eventNumber: event.number))
            return
        }
        lastEvent = event.number
        pendingAck = event.number
        guard bucket.take(now: .now) else {
            refuse(
                ProtocolError(
                    .rateLimited, "more than \(Int(limits.eventsPerSecond)) events per second; event refused",
                    eventNumber: event.number))
            return
        }
        if event.name == Self.backEvent {
            // The browser's back button, for the stage the page had on top. If that stage
            // is already gone (the server popped it meanwhile), there is nothing to do.
            back(from: event.stage)
            scheduleFlush()
            return
        }
        guard let index = mounted.index(of: event.stage) else {
            let names = mounted.entries.map { "\"\($0.id)\"" }.joined(separator: ", ")
            refuse(
                ProtocolError(
                    .unknownStage,
                    "no stage \"\(event.stage)\" is mounted (mounted: \(names.isEmpty ? "none" : names))",
                    eventNumber: event.number))
            return
        }
        do {
            try mounted[index].stage.handle(event: event.name, value: event.value)
        } catch {
            switch error.kind {
            case .unknownEvent: refuse(ProtocolError(.unknownEvent, error.message, eventNumber: event.number))
            case .badValue: refuse(ProtocolError(.badValue, error.message, eventNumber: event.number))
            case .directorFailed: fail(ProtocolError(.directorFailed, error.message, eventNumber: event.number))
            }
            return
        }
        scheduleFlush()
    }

    /// The event name the page sends for the browser's back button.
    static let backEvent = "@back"

    /// A binding error the page reported.
    func report(stage: String, message: String) {
        onQueue()
        guard bucket.take(now: .now) else { return }  // reports share the event rate limit
        logger.warning("the page reports a binding error in stage \"\(stage)\": \(message)")
    }

    func acknowledge(seq: Int64) {
        onQueue()
        guard seq < nextSeq else {
            refuse(ProtocolError(.badAck, "acknowledged seq \(seq), but the last one sent is \(nextSeq - 1)"))
            return
        }
        replay.acknowledge(through: seq)
    }

    private func refuse(_ detailed: ProtocolError) {
        if detailed.code != .badSlotValue { logger.info("refused client message: \(detailed)") }
        let error = sendsErrorDetails ? detailed : detailed.withoutDetails()
        // A run of events refused for the same reason (a burst over the rate limit)
        // becomes one error for the run, so none goes unreported.
        if case .error(let previous)? = advisories.last, let merged = previous.merged(with: error) {
            advisories[advisories.count - 1] = .error(merged)
            scheduleFlush()
            return
        }
        if advisories.count >= limits.pendingAdvisories {
            advisories.removeFirst()
            logger.notice("dropped an advisory error for a slow client")
        }
        advisories.append(.error(error))
        scheduleFlush()
    }

    // MARK: Output

    /// Full mounts of every stage, which become what the client was last sent.
    private func snapshot() -> [ServerMessage] {
        replay.reset(floor: nextSeq - 1)
        commands.removeAll { if case .open = $0 { false } else { true } }
        return mounted.indices.map(mountMessage)
    }

    private func mountMessage(_ index: Int) -> ServerMessage {
        let document = mounted[index].stage.document
        mounted[index].extra = Sent(document: document, dirty: false)
        let entry = mounted[index]
        return .mount(
            ServerMessage.Mount(
                seq: takeSeq(), stage: entry.id, template: entry.stage.name, document: document,
                placement: entry.placement, url: entry.url, events: entry.stage.eventOptionsJSON))
    }

    private func takeSeq() -> Int64 {
        defer { nextSeq += 1 }
        return nextSeq
    }

    /// Flushes once at the end of the current turn, however many slots changed in it.
    private func scheduleFlush() {
        guard !flushScheduled else { return }
        flushScheduled = true
        queue.async { [self] in
            flushScheduled = false
            flush()
        }
    }

    /// Diffs every dirty stage against what the client was last sent and sends the
    /// patches, unless the socket is behind: then the changes wait and are coalesced
    /// into one diff per stage when it catches up.
    private func flush() {
        onQueue()
        guard let connection, !ended else { return }
        if connection.unsentBytes > limits.outboxHighWater {
            connection.requestDrainSignal()
            return
        }
        var messages: [ServerMessage] = []
        for command in commands {
            switch command {
            case .mount(let id):
                if let index = mounted.index(of: id) { messages.append(mountMessage(index)) }
            case .unmount(let id):
                messages.append(.unmount(seq: takeSeq(), stage: id))
            case .open(let url):
                messages.append(.open(seq: takeSeq(), url: url))
            }
        }
        commands.removeAll()
        for index in mounted.indices where mounted[index].extra.dirty {
            let document = mounted[index].stage.document
            let patch = JSONPatch.diff(from: mounted[index].extra.document, to: document)
            mounted[index].extra = Sent(document: document, dirty: false)
            if !patch.isEmpty {
                messages.append(.patch(seq: takeSeq(), stage: mounted[index].id, patch: patch, ack: nil))
            }
        }
        messages += advisories
        advisories.removeAll()
        if let ack = pendingAck {
            pendingAck = nil
            if let last = messages.lastIndex(where: { $0.seq != nil }),
                case .patch(let seq, let stage, let patch, nil) = messages[last]
            {
                messages[last] = .patch(seq: seq, stage: stage, patch: patch, ack: ack)
            } else {
                messages.append(.ack(number: ack))
            }
        }
        connection.send(frames(messages))
    }

    /// Encodes messages; sequenced ones also go into the replay buffer.
    private func frames(_ messages: [ServerMessage]) -> [OutboundFrame] {
        var result: [OutboundFrame] = []
        result.reserveCapacity(messages.count)
        for message in messages {
            do {
                let frame = OutboundFrame(storageWithHeadroom: try message.encoded(headroom: OutboundFrame.headroom))
                if let seq = message.seq { replay.append(seq: seq, frame: frame) }
                result.append(frame)
            } catch {
                logger.error("could not encode a \(message.json["t"]?.stringValue ?? "?") message: \(error)")
                let failure = ServerMessage.error(ProtocolError(.internal, "the server could not encode an update"))
                if let bytes = try? failure.encoded(headroom: OutboundFrame.headroom) {
                    result.append(OutboundFrame(storageWithHeadroom: bytes))
                }
            }
        }
        return result
    }
}

extension Session: Presenter {
    func present(_ stage: Stage, placement: Placement, url: String?) {
        onQueue()
        let id = mounted.add(stage, placement: placement, url: url, extra: Sent(document: stage.document, dirty: false))
        stage.didChange = { [unowned self] in
            self.onQueue()  // a Director must emit on its session's queue (receive(on:))
            guard let index = self.mounted.index(of: id) else { return }
            self.mounted[index].extra.dirty = true
            self.scheduleFlush()
        }
        stage.didFail = { [unowned self] message in
            self.onQueue()
            self.logger.error("\(message)")
            self.refuse(ProtocolError(.badSlotValue, message))
        }
        commands.append(.mount(id))
        scheduleFlush()
    }

    func removeTop(_ placement: Placement) {
        onQueue()
        guard let entry = mounted.removeTop(placement) else { return }
        // A mount the client never saw is simply forgotten; otherwise it is told.
        if let pending = commands.firstIndex(where: { if case .mount(entry.id) = $0 { true } else { false } }) {
            commands.remove(at: pending)
        } else {
            commands.append(.unmount(entry.id))
        }
        scheduleFlush()
    }

    /// Removes the pushed or modal stage `id` and everything stacked above it.
    func back(from id: String) {
        guard let index = mounted.index(of: id), mounted[index].placement != .root else { return }
        while let top = mounted.entries.last, mounted.index(of: id) != nil {
            removeTop(top.placement)
            if top.id == id { break }
        }
    }

    func removeAll() {
        onQueue()
        for placement in [Placement.modal, .push, .root] {
            while mounted.entries.contains(where: { $0.placement == placement }) { removeTop(placement) }
        }
    }

    func open(url: String) {
        onQueue()
        let pendingOpens = commands.filter { if case .open = $0 { true } else { false } }.count
        guard pendingOpens < 8 else {
            logger.notice("dropped an open-URL command: 8 are already waiting for the client")
            return
        }
        commands.append(.open(url))
        scheduleFlush()
    }
}
