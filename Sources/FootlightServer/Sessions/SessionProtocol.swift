/// The conversation of one session with its page, as a value: sequence numbers, the
/// replay buffer, acknowledgements both ways, exactly-once event numbers, the event
/// rate limit, refusals, backpressure, joins and resumes, and the end.
///
/// It knows nothing of stages or app code: it works on integers and wire messages
/// only, and every step returns the ``ProtocolAction``s its driver carries out. Two
/// machines fed the same steps are equal (`==`), which is how its tests read.
package struct SessionProtocol: Equatable {
    /// A join waiting for the first flush, which sends `joined` with the whole page.
    package struct Joining: Equatable {
        package let resumed: Bool
        /// The missed messages, or nil for a snapshot (or a new session).
        package let replayed: [WireMessage]?
        /// For a rebuild, each restored stage's new instance id (nil: not rebuilt).
        package var rebuilt: [String?]?
    }

    /// What came of an event's number.
    package enum Admission: Equatable {
        /// New and in order: hand it to its stage.
        case admitted
        /// Consumed before, or refused: nothing more to do than the actions given.
        case settled([ProtocolAction])
    }

    package let token: String
    package let limits: SessionLimits
    /// Whether refusals tell the client their details (else only the log has them).
    package let sendsErrorDetails: Bool

    package private(set) var started = false
    package internal(set) var isEnded = false
    /// The connection the session writes to, if one is attached.
    package internal(set) var connection: ConnectionID?
    /// The next server sequence number.
    package internal(set) var nextSeq: Int64 = 1
    var replay: ReplayBuffer
    /// The highest client event number consumed (applied or refused).
    package private(set) var lastEvent: Int64 = 0
    /// Event number to acknowledge with the next output, if any.
    var pendingAck: Int64?
    /// Errors waiting for the next flush (bounded by ``SessionLimits/pendingAdvisories``).
    var advisories: [ProtocolError] = []
    package internal(set) var flushScheduled = false
    /// Output held back until the socket drains.
    package internal(set) var awaitingDrain = false
    private var bucket: TokenBucket
    package var joining: Joining?

    /// A session that has not started yet; `now` starts its event rate limit.
    package init(token: String, limits: SessionLimits, sendsErrorDetails: Bool, now: ContinuousClock.Instant) {
        self.token = token
        self.limits = limits
        self.sendsErrorDetails = sendsErrorDetails
        replay = ReplayBuffer(maximumCount: limits.replayMessages, maximumBytes: limits.replayBytes)
        bucket = TokenBucket(rate: limits.eventsPerSecond, burst: limits.eventBurst, now: now)
    }

    /// Sequenced messages held for a replay, and their bytes.
    package var replayCount: Int { replay.count }
    package var replayBytes: Int { replay.bytes }

    // MARK: Connections

    /// A connection joins: a new session (`resumeAfter` nil) or a resume of this one
    /// having applied every message up to `resumeAfter`; `rebuilding` when a new session
    /// is rebuilt from what its page showed. Returns whether the app starts now (the
    /// first join) with the actions, which end with a flush that sends `joined`.
    package mutating func attach(_ id: ConnectionID, resumeAfter lastSeq: Int64?, rebuilding: Bool) -> (
        startsApp: Bool, actions: [ProtocolAction]
    ) {
        guard !isEnded else {
            let error = ProtocolError(.unknownSession, "the session has ended; reload the page")
            return (false, [.send(Self.encode(.error(error))), .close(id, code: 4001, reason: "session ended")])
        }
        var actions: [ProtocolAction] = []
        if let previous = connection, previous != id {
            actions.append(.log(.info, "a newer connection resumed the session; closing the older one"))
            actions.append(.close(previous, code: 4000, reason: "replaced by a newer connection"))
        }
        connection = id
        awaitingDrain = false
        let startsApp = !started
        started = true
        let lastGenerated = nextSeq - 1
        var replayed: [WireMessage]?
        if let seq = lastSeq {
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
        joining = Joining(
            resumed: lastSeq != nil, replayed: replayed, rebuilt: startsApp && rebuilding ? [] : nil)
        return (startsApp, actions)
    }

    /// The join waiting for its first flush gets the page whole (a snapshot), not the
    /// messages it missed: the page holds nothing, and its stages have moved since.
    package mutating func sendSnapshotOnJoin() {
        guard let pending = joining, pending.replayed != nil else { return }
        joining = Joining(resumed: pending.resumed, replayed: nil, rebuilt: pending.rebuilt)
    }

    /// The connection closed; the rest is kept for a resume.
    package mutating func detach(_ id: ConnectionID) {
        guard connection == id else { return }
        connection = nil
        joining = nil
        awaitingDrain = false
    }

    /// Ends the session for good: a connected client gets `bye` and a close with
    /// `closeCode`.
    package mutating func end(reason: String, closeCode: UInt16 = 1001) -> [ProtocolAction] {
        guard !isEnded else { return [] }
        isEnded = true
        replay.reset(floor: nextSeq - 1)
        flushScheduled = false
        var actions: [ProtocolAction] = [.log(.debug, "session ended: \(reason)")]
        if let connection {
            actions.append(.send(Self.encode(.bye(reason: reason))))
            actions.append(.close(connection, code: closeCode, reason: reason))
        }
        connection = nil
        return actions
    }

    /// A Director failed: the session is beyond repair. Its page gets the error and a
    /// close asking it to reload; the registry forgets it.
    package mutating func fail(_ failure: ProtocolError) -> [ProtocolAction] {
        var actions: [ProtocolAction] = [.log(.error, "ending the session: \(failure)"), .ended]
        if connection != nil {
            actions.append(.send(Self.encode(.error(sendsErrorDetails ? failure : failure.withoutDetails()))))
        }
        return actions + end(reason: "the session failed; reload the page", closeCode: 4001)
    }

    // MARK: From the client

    /// An event's number: consumed exactly once, in order, within the rate limit.
    package mutating func admit(event number: Int64, now: ContinuousClock.Instant) -> Admission {
        guard !isEnded else { return .settled([]) }
        if number <= lastEvent {
            // A re-send after a resume: already consumed, acknowledge again only.
            pendingAck = max(pendingAck ?? 0, number)
            return .settled(scheduleFlush())
        }
        guard number == lastEvent + 1 else {
            return .settled(
                refuse(ProtocolError(.eventGap, "expected event \(lastEvent + 1), got \(number)", eventNumber: number)))
        }
        lastEvent = number
        pendingAck = number
        guard bucket.take(now: now) else {
            return .settled(
                refuse(
                    ProtocolError(
                        .rateLimited, "more than \(Int(limits.eventsPerSecond)) events per second; event refused",
                        eventNumber: number)))
        }
        return .admitted
    }

    /// Takes one event's worth of the rate limit; false when the session is over it.
    package mutating func takeEventToken(now: ContinuousClock.Instant) -> Bool {
        bucket.take(now: now)
    }

    /// The client applied every message up to `seq`.
    package mutating func acknowledge(seq: Int64) -> [ProtocolAction] {
        guard seq < nextSeq else {
            return refuse(ProtocolError(.badAck, "acknowledged seq \(seq), but the last one sent is \(nextSeq - 1)"))
        }
        replay.acknowledge(through: seq)
        return []
    }

    /// Queues an error for the client. A run of events refused for the same reason (a
    /// burst over the rate limit) becomes one error for the run, so none goes unreported.
    package mutating func refuse(_ detailed: ProtocolError) -> [ProtocolAction] {
        var actions: [ProtocolAction] = []
        if detailed.code != .badSlotValue { actions.append(.log(.info, "refused client message: \(detailed)")) }
        let error = sendsErrorDetails ? detailed : detailed.withoutDetails()
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
}
