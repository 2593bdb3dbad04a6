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

    let token: String
    let queue: DispatchQueue
    private let limits: SessionLimits
    private let logger: Logger
    private let makeStages: StageFactory
    private weak var registry: SessionRegistry?

    private struct Slot {
        let stage: Stage
        /// The document as of the last message generated for this stage.
        var sent: JSON
        var dirty: Bool
    }
    private var slots: [Slot] = []
    private var slotIndex: [String: Int] = [:]
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
        token: String, limits: SessionLimits, logger: Logger, makeStages: @escaping StageFactory,
        registry: SessionRegistry, target: DispatchQueue
    ) {
        self.token = token
        self.limits = limits
        self.makeStages = makeStages
        self.registry = registry
        self.queue = DispatchQueue(label: "footlight.session", target: target)
        self.replay = ReplayBuffer(maximumCount: limits.replayMessages, maximumBytes: limits.replayBytes)
        self.bucket = TokenBucket(rate: limits.eventsPerSecond, burst: limits.eventBurst, now: .now)
        var logger = logger
        logger[metadataKey: "session"] = "\(token.prefix(8))"
        self.logger = logger
    }

    private func onQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    // MARK: Connections

    /// Attaches a new connection: a fresh join, or a resume after `lastSeq`.
    func attach(_ handle: ConnectionHandle, resumeAfter lastSeq: Int64?) {
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
        registry?.connected(token)

        if !started {
            started = true
            startStages()
        }
        var output: [ServerMessage] = []
        var replayed: [OutboundFrame] = []
        let lastGenerated = nextSeq - 1
        switch lastSeq {
        case nil:
            // A new session (or a page load that takes it over): full mounts.
            output.append(.joined(token: token, resumed: false, snapshot: false, events: lastEvent))
            output += snapshot()
        case let seq? where seq <= lastGenerated:
            if let missed = replay.frames(after: seq) {
                output.append(.joined(token: token, resumed: true, snapshot: false, events: lastEvent))
                replayed = missed
                logger.debug("resumed after seq \(seq), replaying \(missed.count) messages")
            } else {
                output.append(.joined(token: token, resumed: true, snapshot: true, events: lastEvent))
                output += snapshot()
                logger.info("resumed after seq \(seq), which is no longer held; sent a snapshot")
            }
        case let seq?:
            logger.notice("client claims seq \(seq) but only \(lastGenerated) were sent; sending a snapshot")
            output.append(.joined(token: token, resumed: true, snapshot: true, events: lastEvent))
            output += snapshot()
        }
        let joinFrames = frames(Array(output.prefix(1)))
        handle.send(joinFrames + replayed + frames(Array(output.dropFirst())))
        flush()
    }

    /// The connection closed; keep the state for a resume.
    func detach(_ handle: ConnectionHandle) {
        onQueue()
        guard connection?.id == handle.id else { return }
        handle.setDrainHandler(nil)
        connection = nil
        registry?.disconnected(token)
    }

    /// Ends the session for good: stages and Directors are released.
    func end(reason: String) {
        onQueue()
        guard !ended else { return }
        ended = true
        for slot in slots { slot.stage.cancel() }
        slots.removeAll()
        slotIndex.removeAll()
        replay.reset(floor: nextSeq - 1)
        if let connection {
            connection.setDrainHandler(nil)
            connection.send(frames([.bye(reason: reason)]))
            connection.close(code: 1001, reason: reason)
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
        guard let index = slotIndex[event.stage] else {
            let mounted = slots.map { "\"\($0.stage.name)\"" }.joined(separator: ", ")
            refuse(
                ProtocolError(
                    .unknownStage, "no stage \"\(event.stage)\" is mounted (mounted: \(mounted))",
                    eventNumber: event.number
                ))
            return
        }
        do {
            try slots[index].stage.handle(event: event.name, value: event.value)
        } catch {
            let code: ProtocolError.Code = error.kind == .unknownEvent ? .unknownEvent : .badValue
            refuse(ProtocolError(code, error.message, eventNumber: event.number))
            return
        }
        scheduleFlush()
    }

    func acknowledge(seq: Int64) {
        onQueue()
        guard seq < nextSeq else {
            refuse(ProtocolError(.badAck, "acknowledged seq \(seq), but the last one sent is \(nextSeq - 1)"))
            return
        }
        replay.acknowledge(through: seq)
    }

    private func refuse(_ error: ProtocolError) {
        logger.info("refused client message: \(error)")
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

    private func startStages() {
        let stages = makeStages(SessionEnvironment(queue: queue))
        for stage in stages {
            guard slotIndex[stage.name] == nil else {
                logger.error("two stages are named \"\(stage.name)\"; the second is ignored")
                continue
            }
            let index = slots.count
            slotIndex[stage.name] = index
            slots.append(Slot(stage: stage, sent: stage.document, dirty: false))
            stage.didChange = { [unowned self] in
                self.slots[index].dirty = true
                self.scheduleFlush()
            }
        }
    }

    /// Full mounts of every stage, which become what the client was last sent.
    private func snapshot() -> [ServerMessage] {
        replay.reset(floor: nextSeq - 1)
        var messages: [ServerMessage] = []
        for index in slots.indices {
            let document = slots[index].stage.document
            messages.append(.mount(seq: takeSeq(), stage: slots[index].stage.name, document: document))
            slots[index].sent = document
            slots[index].dirty = false
        }
        return messages
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
        for index in slots.indices where slots[index].dirty {
            slots[index].dirty = false
            let document = slots[index].stage.document
            let patch = JSONPatch.diff(from: slots[index].sent, to: document)
            slots[index].sent = document
            if !patch.isEmpty {
                messages.append(.patch(seq: takeSeq(), stage: slots[index].stage.name, patch: patch, ack: nil))
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
