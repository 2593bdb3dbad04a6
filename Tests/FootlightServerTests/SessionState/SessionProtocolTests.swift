import FootlightJSON
import Testing

@testable import FootlightServer

/// The session's protocol as a value: no stage, no app code, no socket. Each step's
/// actions are compared whole, and so are whole machines.
@Suite("SessionProtocol: the conversation as a value")
struct SessionProtocolTests {
    static let start = ContinuousClock.now

    static func joined(limits: SessionLimits = SessionLimits()) -> SessionProtocol {
        var conversation = SessionProtocol(token: "t", limits: limits, sendsErrorDetails: true, now: start)
        _ = conversation.attach(1, resumeAfter: nil, rebuilding: false)
        _ = conversation.beginFlush(unsentBytes: 0)
        return conversation
    }

    /// `messages` as a flush completes them (errors waiting, the acknowledgement).
    static func completed(_ messages: [ServerMessage], by conversation: inout SessionProtocol) -> [ServerMessage] {
        var messages = messages
        conversation.complete(&messages)
        return messages
    }

    /// Sends one sequenced message as a flush would; returns its bytes.
    static func send(_ text: String, on conversation: inout SessionProtocol) -> WireMessage {
        let message = WireMessage(bytes: Array(text.utf8))
        conversation.sent(seq: conversation.takeSeq(), message)
        return message
    }

    @Test("Two machines fed the same steps are equal; one more event makes them differ")
    func equalSteps() {
        var a = Self.joined()
        var b = Self.joined()
        #expect(a == b)
        #expect(a.admit(event: 1, now: Self.start) == .admitted)
        #expect(b.admit(event: 1, now: Self.start) == .admitted)
        #expect(a == b)
        _ = a.admit(event: 2, now: Self.start)
        #expect(a != b)
    }

    @Test("The first join starts the app and flushes; a second join on another connection closes the first")
    func joins() {
        var conversation = SessionProtocol(
            token: "t", limits: SessionLimits(), sendsErrorDetails: true, now: Self.start)
        let first = conversation.attach(1, resumeAfter: nil, rebuilding: true)
        #expect(first.startsApp && first.actions == [.scheduleFlush])
        #expect(conversation.joining == SessionProtocol.Joining(resumed: false, replayed: nil, rebuilt: []))
        #expect(conversation.beginFlush(unsentBytes: 0) == .join(.init(resumed: false, replayed: nil, rebuilt: [])))
        let second = conversation.attach(2, resumeAfter: 0, rebuilding: false)
        #expect(!second.startsApp)
        #expect(
            second.actions == [
                .log(.info, "a newer connection resumed the session; closing the older one"),
                .close(1, code: 4000, reason: "replaced by a newer connection"), .scheduleFlush,
            ])
        #expect(conversation.connection == 2)
    }

    @Test("A resume gets exactly the messages after its last seq; one no longer held gets a snapshot")
    func resumeReplay() {
        var limits = SessionLimits()
        limits.replayMessages = 2
        var conversation = Self.joined(limits: limits)
        let sent = (1...3).map { Self.send("{\"seq\":\($0)}", on: &conversation) }
        conversation.detach(1)
        _ = conversation.attach(2, resumeAfter: 2, rebuilding: false)
        #expect(conversation.joining?.replayed == [sent[2]])
        conversation.detach(2)
        let actions = conversation.attach(3, resumeAfter: 0, rebuilding: false).actions
        #expect(conversation.joining?.replayed == nil, "seq 1 was dropped to keep two")
        #expect(actions.first == .log(.info, "resumed after seq 0, which is no longer held; sending a snapshot"))
    }

    @Test("Event numbers are consumed once and in order; a gap and a burst over the rate are refused")
    func eventsExactlyOnce() {
        var limits = SessionLimits()
        limits.eventBurst = 2
        limits.eventsPerSecond = 1
        var conversation = Self.joined(limits: limits)
        #expect(conversation.admit(event: 1, now: Self.start) == .admitted)
        #expect(conversation.admit(event: 1, now: Self.start) == .settled([.scheduleFlush]), "a re-send: ack only")
        guard case .settled(let gap) = conversation.admit(event: 5, now: Self.start) else {
            Issue.record("a gap was admitted")
            return
        }
        #expect(gap.contains(.log(.info, "refused client message: event-gap (event 5): expected event 2, got 5")))
        #expect(conversation.admit(event: 2, now: Self.start) == .admitted)
        guard case .settled(let limited) = conversation.admit(event: 3, now: Self.start) else {
            Issue.record("an event over the rate limit was admitted")
            return
        }
        #expect(limited.count == 1, "a log line; the flush is already scheduled")
        #expect(conversation.lastEvent == 3, "a refused event is consumed too")
        let messages = Self.completed([], by: &conversation)
        #expect(messages.map(\.json["t"]) == ["error", "error", "ack"])
        #expect(messages.last == .ack(number: 3))
    }

    @Test("The acknowledgement rides on the last patch; without one it is a message of its own")
    func ackRidesOnPatch() {
        var conversation = Self.joined()
        _ = conversation.admit(event: 1, now: Self.start)
        let patch = ServerMessage.patch(seq: 1, stage: "s", patch: JSONPatch(), ack: nil)
        let open = ServerMessage.open(seq: 2, url: "https://example.com")
        #expect(
            Self.completed([patch, open], by: &conversation) == [
                .patch(seq: 1, stage: "s", patch: JSONPatch(), ack: 1), open,
            ])
        #expect(Self.completed([open], by: &conversation) == [open], "acknowledged once")
    }

    @Test("A socket behind holds the changes and asks for a drain once; the drain flushes")
    func backpressure() {
        let high = SessionLimits().outboxHighWater
        var conversation = Self.joined()
        #expect(conversation.beginFlush(unsentBytes: high + 1) == .hold([.awaitDrain]))
        #expect(conversation.beginFlush(unsentBytes: high + 1) == .hold([]))
        #expect(conversation.drained() == [.scheduleFlush])
        #expect(conversation.drained() == [])
        #expect(conversation.beginFlush(unsentBytes: 0) == .changes)
    }

    @Test("An acknowledgement of a seq never sent is refused; a good one empties the replay")
    func acknowledgements() {
        var conversation = Self.joined()
        _ = Self.send("{}", on: &conversation)
        #expect(conversation.acknowledge(seq: 1) == [])
        #expect(conversation.replayCount == 0)
        #expect(conversation.acknowledge(seq: 9).contains(.scheduleFlush))
        #expect(Self.completed([], by: &conversation).first?.json["code"] == "bad-ack")
    }

    @Test("The end says bye and closes once; a join after it is told the session ended")
    func end() {
        var conversation = Self.joined()
        let actions = conversation.end(reason: "expired")
        #expect(actions.count == 3 && actions.last == .close(1, code: 1001, reason: "expired"))
        #expect(conversation.end(reason: "again") == [])
        let late = conversation.attach(2, resumeAfter: 0, rebuilding: false)
        #expect(!late.startsApp && late.actions.last == .close(2, code: 4001, reason: "session ended"))
        #expect(conversation.beginFlush(unsentBytes: 0) == .none)
    }
}
