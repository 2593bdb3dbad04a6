/// The protocol's part of a flush: whether it may send, the numbers it gives the
/// page's messages, the errors and acknowledgement it adds, and the replay it keeps.
extension SessionProtocol {
    /// Asks for a flush at the end of the turn, once.
    package mutating func scheduleFlush() -> [ProtocolAction] {
        guard !flushScheduled, !isEnded else { return [] }
        flushScheduled = true
        return [.scheduleFlush]
    }

    /// The socket wrote everything queued: held-back changes may go now.
    package mutating func drained() -> [ProtocolAction] {
        guard awaitingDrain else { return [] }
        awaitingDrain = false
        flushScheduled = true
        return [.scheduleFlush]
    }

    /// What a flush may do with `unsentBytes` waiting on the socket.
    package enum Output: Equatable {
        /// Nothing: no connection, or the session ended.
        case none
        /// The first flush after a join: `joined`, then the page.
        case join(Joining)
        /// The socket is behind: hold the changes (the actions ask for a drain signal).
        case hold([ProtocolAction])
        /// Send what changed.
        case changes
    }

    /// Starts a flush: what it may send.
    package mutating func beginFlush(unsentBytes: Int) -> Output {
        flushScheduled = false
        guard connection != nil, !isEnded else { return .none }
        if let joining {
            self.joining = nil
            return .join(joining)
        }
        guard unsentBytes <= limits.outboxHighWater else {
            guard !awaitingDrain else { return .hold([]) }
            awaitingDrain = true
            return .hold([.awaitDrain])
        }
        return .changes
    }

    /// The next sequence number, taken.
    package mutating func takeSeq() -> Int64 {
        defer { nextSeq += 1 }
        return nextSeq
    }

    /// Adds to `messages` the errors waiting and the acknowledgement, which rides on the
    /// last patch when there is one (client commands after it, a hook's message or a
    /// focus, need no frame of their own). In place: a click's flush copies nothing.
    package mutating func complete(_ messages: inout [ServerMessage]) {
        if !advisories.isEmpty {
            messages += advisories.map(ServerMessage.error)
            advisories.removeAll()
        }
        guard let ack = pendingAck else { return }
        pendingAck = nil
        if let last = messages.lastIndex(where: { if case .patch = $0 { true } else { false } }),
            case .patch(let seq, let stage, let patch, nil) = messages[last]
        {
            messages[last] = .patch(seq: seq, stage: stage, patch: patch, ack: ack)
        } else {
            messages.append(.ack(number: ack))
        }
    }

    /// A sequenced message went out: held for a replay until acknowledged.
    package mutating func sent(seq: Int64, _ message: WireMessage) {
        replay.append(seq: seq, message: message)
    }

    /// A snapshot replaces the history: nothing sent before is replayed.
    package mutating func resetReplay() {
        replay.reset(floor: nextSeq - 1)
    }

    /// An unsequenced message of the protocol's own (an error, `bye`), encoded.
    static func encode(_ message: ServerMessage) -> [WireMessage] {
        (try? message.encoded()).map { [WireMessage(bytes: $0)] } ?? []
    }
}
