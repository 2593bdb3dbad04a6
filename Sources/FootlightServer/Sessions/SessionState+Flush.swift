import Footlight
import FootlightJSON

/// The end of a turn: what changed becomes messages (the page's diff, numbered and
/// completed by the protocol), encoded once, held for a replay.
extension SessionState {
    /// Diffs every changed stage against what the client was last sent and sends the
    /// patches, commands, errors and acknowledgement, unless the socket is behind
    /// (`unsentBytes` over the high-water mark): then the changes wait and are coalesced
    /// into one diff per stage once it drains.
    package mutating func flush(unsentBytes: Int) -> [ProtocolAction] {
        switch conversation.beginFlush(unsentBytes: unsentBytes) {
        case .none:
            return []
        case .hold(let actions):
            return actions
        case .join(let joining):
            return [.send(joinMessages(joining))] + takeEncodingFailures()
        case .changes:
            var messages = page.pendingMessages(numbering: &conversation)
            conversation.complete(&messages)
            return messages.isEmpty ? [] : [.send(encode(messages))] + takeEncodingFailures()
        }
    }

    /// The socket wrote everything queued: held-back changes may go now.
    package mutating func drained() -> [SessionAction] {
        .init(conversation.drained())
    }

    /// `joined`, then the missed messages or a mount per stage, then newer changes.
    private mutating func joinMessages(_ joining: SessionProtocol.Joining) -> [WireMessage] {
        var mounts: [ServerMessage] = []
        var titles: [ServerMessage] = []
        if joining.replayed == nil {
            conversation.resetReplay()
            mounts = page.snapshot(numbering: &conversation)
            titles = page.titlesAgain(numbering: &conversation)
        }
        let hello = ServerMessage.joined(
            token: token, resumed: joining.resumed, snapshot: joining.resumed && joining.replayed == nil,
            events: conversation.lastEvent, mounts: mounts.count,
            maximumMessageBytes: configuration.maximumMessageBytes, rebuilt: joining.rebuilt)
        var changes = page.pendingMessages(numbering: &conversation)
        conversation.complete(&changes)
        return encode([hello]) + (joining.replayed ?? []) + encode(mounts + titles + changes)
    }

    private mutating func takeEncodingFailures() -> [ProtocolAction] {
        defer { encodingFailures.removeAll() }
        return encodingFailures.map { .log(.error, $0) }
    }

    /// Encodes messages; sequenced ones are also held for a replay. A message that
    /// cannot be encoded becomes an `internal-error` (the details go to the log).
    private mutating func encode(_ messages: [ServerMessage]) -> [WireMessage] {
        var result: [WireMessage] = []
        result.reserveCapacity(messages.count)
        for message in messages {
            do {
                let encoded = WireMessage(bytes: try message.encoded(sharing: configuration.sharedOperations))
                if let seq = message.seq { conversation.sent(seq: seq, encoded) }
                result.append(encoded)
            } catch {
                encodingFailures.append(
                    "could not encode a \(message.json[.type]?.stringValue ?? "?") message: \(error)")
                let failure = ServerMessage.error(ProtocolError(.internal, ProtocolError.Code.internal.summary))
                if let bytes = try? failure.encoded() { result.append(WireMessage(bytes: bytes)) }
            }
        }
        return result
    }
}
