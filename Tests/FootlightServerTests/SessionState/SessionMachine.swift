import Footlight
import FootlightJSON
import Testing

@testable import FootlightServer

/// Drives a ``SessionState`` by hand, as its driver would, with no socket, no thread
/// and no sleep: what it sends is decoded to JSON, closes and logs are recorded. App
/// code runs through the one interpreter every host shares (``SessionHost/perform(_:)``).
final class SessionMachine: SessionHost {
    var state: SessionState
    /// Messages sent to the connection, decoded, since the last `take()`.
    var sent: [JSON] = []
    var closes: [(connection: ConnectionID, code: UInt16)] = []
    var logs: [String] = []
    var awaitingDrain = false
    var ended = false
    /// The app entry run on the first attach.
    let entry: (SessionMachine, String) -> Void
    /// The app's modal restorer, run in a rebuild for each modal the page showed.
    let restoreModal: (SessionMachine, String) -> Void
    /// The time events arrive at (the rate limit's clock); moved by hand.
    var now: ContinuousClock.Instant

    init(
        token: String = "token-1", limits: SessionLimits = SessionLimits(), details: Bool = true,
        entry: @escaping (SessionMachine, String) -> Void = { _, _ in },
        restoreModal: @escaping (SessionMachine, String) -> Void = { _, _ in }
    ) {
        let start = ContinuousClock.now
        state = SessionState(
            token: token, configuration: .init(limits: limits, sendsErrorDetails: details), now: start)
        now = start
        self.entry = entry
        self.restoreModal = restoreModal
    }

    func startApp(path: String, modals: [String]) {
        entry(self, path)
        for template in modals { restoreModal(self, template) }
    }

    func carryOut(_ action: ProtocolAction) {
        switch action {
        case .send(let messages):
            for message in messages {
                sent.append(try! message.bytes.withUnsafeBytes { try JSON.parse($0) })
            }
        case .close(let id, let code, _): closes.append((id, code))
        case .scheduleFlush: break
        case .awaitDrain: awaitingDrain = true
        case .log(_, let message): logs.append(message)
        case .ended: ended = true
        }
    }

    func startOver(reason: String) {}

    /// Ends the turn: flushes with `unsentBytes` waiting on the socket. Every stage
    /// counts as changed (the driver hears of changes through the stage's host, `StageHost.stageChanged`; an
    /// unchanged document diffs to nothing).
    func endTurn(unsentBytes: Int = 0) {
        for id in state.stages.entries.map(\.id) { perform(state.stageChanged(id)) }
        if state.flushScheduled { for action in state.flush(unsentBytes: unsentBytes) { carryOut(action) } }
    }

    func attach(
        _ id: ConnectionID = 1, resumeAfter seq: Int64? = nil, path: String? = nil,
        restore: ClientMessage.Restore? = nil
    ) {
        perform(state.attach(id, resumeAfter: seq, path: path, restore: restore))
        endTurn()
    }

    func event(_ number: Int64, _ name: String, stage: String = "counter", value: JSON? = nil) {
        perform(state.receive(ClientMessage.Event(number: number, stage: stage, name: name, value: value), now: now))
        endTurn()
    }

    func present(_ stage: Stage, _ placement: Placement = .root, url: String? = nil) -> String {
        let (id, actions) = state.present(stage, placement: placement, url: url)
        perform(actions)
        return id
    }

    /// The messages sent since the last call.
    func take() -> [JSON] {
        defer { sent.removeAll() }
        return sent
    }

    /// The `t` of each message sent since the last call.
    func takeTypes() -> [String] {
        take().map { $0["t"]?.stringValue ?? "?" }
    }
}

/// A counter stage: "increment" adds one, "amount" sets the count (and throws for a
/// negative amount: a failing Director). Its bindings hold the count's subject, not
/// this object: a scene may keep only `stage`.
final class CountingStage {
    let stage = Stage(name: "counter")
    private let value = CurrentValueSubject<Int, Never>(0)

    init() {
        let increment = PassthroughSubject<Void, Never>()
        stage.bind(value, to: "count")
        stage.on("increment", send: increment)
        stage.on("amount") { [value] (amount: Int) in
            guard amount >= 0 else { throw CountingStageError() }
            value.send(amount)
        }
        stage.keep(increment.sink { [value] in value.send(value.value + 1) })
    }

    /// Sets the count directly (a change from outside any event).
    func set(_ count: Int) {
        value.send(count)
    }
}

struct CountingStageError: Error {}
