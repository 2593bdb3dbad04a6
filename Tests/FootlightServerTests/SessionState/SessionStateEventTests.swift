import Footlight
import FootlightJSON
import Testing

@testable import FootlightServer

@Suite("SessionState: events consumed exactly once, and every refusal")
struct SessionStateEventTests {
    static func joined(limits: SessionLimits = SessionLimits(), details: Bool = true) -> (SessionMachine, CountingStage)
    {
        let counter = CountingStage()
        let machine = SessionMachine(limits: limits, details: details) { machine, _ in
            _ = machine.present(counter.stage)
        }
        machine.attach()
        _ = machine.take()
        return (machine, counter)
    }

    @Test("An event is delivered once; its patch carries the acknowledgement")
    func eventAndAck() {
        let (machine, _) = Self.joined()
        machine.event(1, "increment")
        let sent = machine.take()
        #expect(sent.count == 1)
        #expect(sent[0]["t"] == "patch" && sent[0]["ack"] == 1)
        #expect(sent[0]["ops"] == [["op": "replace", "path": "/count", "value": 1]])
    }

    @Test("An event whose turn patches and runs client commands: the acknowledgement rides on the patch")
    func ackRidesOnThePatchBeforeCommands() {
        let stage = Stage(name: "lot")
        let amount = CurrentValueSubject<String, Never>("")
        stage.bind(amount, to: "amount")
        stage.on("amount", send: amount)
        let machine = SessionMachine { machine, _ in _ = machine.present(stage) }
        machine.attach()
        _ = machine.take()
        // One turn: the event, and the commands its stage runs (a focus, say).
        machine.perform(
            machine.state.receive(
                ClientMessage.Event(number: 1, stage: "lot", name: "amount", value: "500"), now: machine.now))
        machine.perform(machine.state.run([.focus("#amount")], in: "lot"))
        machine.endTurn()
        let sent = machine.take()
        #expect(sent.map { $0["t"] } == ["patch", "run"])
        #expect(sent[0]["ack"] == 1 && sent[0]["ops"] == [["op": "replace", "path": "/amount", "value": "500"]])
    }

    @Test("A re-sent event is acknowledged again and not delivered again")
    func duplicate() {
        let (machine, _) = Self.joined()
        machine.event(1, "increment")
        _ = machine.take()
        machine.event(1, "increment")
        #expect(machine.take() == [["t": "ack", "n": 1]])
        #expect(machine.state.stages.entries[0].stage.document == ["count": 1])
    }

    @Test("An event number that skips ahead is refused as event-gap; the next expected number stays the same")
    func gap() {
        let (machine, _) = Self.joined()
        machine.event(3, "increment")
        let sent = machine.take()
        #expect(sent.map { $0["code"] } == ["event-gap"])
        #expect(sent[0]["n"] == 3)
        machine.event(1, "increment")
        #expect(machine.take().first?["ack"] == 1)
        #expect(machine.state.lastEvent == 1)
    }

    @Test("An unknown stage's refusal names at most 8 of the stages mounted, however many there are")
    func unknownStageNamesEight() {
        let (machine, _) = Self.joined()
        for _ in 0..<20 { _ = machine.present(Stage(name: "lot"), .push) }
        machine.endTurn()
        _ = machine.take()
        machine.event(1, "add", stage: "lot-99")
        let message = machine.take().first { $0["code"] == "unknown-stage" }?["message"]?.stringValue ?? ""
        let named = #""counter", "lot-1", "lot-2", "lot-3", "lot-4", "lot-5", "lot-6", "lot-7""#
        #expect(message.hasSuffix("(mounted: \(named) and 13 more)"), "\(message)")
    }

    @Test("Unknown stage, unknown event and bad value are refused with their codes; the count is untouched")
    func refusals() {
        let (machine, _) = Self.joined()
        machine.event(1, "increment", stage: "nowhere")
        machine.event(2, "explode")
        machine.event(3, "amount", value: "many")
        let codes = machine.take().compactMap { $0["code"]?.stringValue }
        #expect(codes == ["unknown-stage", "unknown-event", "bad-value"])
        #expect(machine.state.stages.entries[0].stage.document == ["count": 0])
        #expect(machine.state.lastEvent == 3)
    }

    @Test("Without error details the client gets only the code's generic text")
    func genericMessages() {
        let (machine, _) = Self.joined(details: false)
        machine.event(1, "explode")
        let error = machine.take().first { $0["t"] == "error" }
        #expect(error?["message"] == .string(ProtocolError.Code.unknownEvent.summary))
        #expect(machine.logs.contains { $0.contains("explode") }, "the log keeps the details")
    }

    @Test("A failing Director ends the session: director-failed, bye, close 4001, and the registry forgets it")
    func directorFailure() {
        let (machine, _) = Self.joined()
        machine.event(1, "amount", value: -1)
        #expect(machine.take().map { $0["t"] } == ["error", "bye"])
        #expect(machine.closes.map(\.code) == [4001])
        #expect(machine.ended)
        #expect(machine.state.isEnded)
    }

    @Test("Events over the rate limit are refused, and a run of them becomes one error naming the run")
    func rateLimit() {
        var limits = SessionLimits()
        limits.eventsPerSecond = 1
        limits.eventBurst = 2
        let (machine, _) = Self.joined(limits: limits)
        for number in 1...6 {
            machine.perform(
                machine.state.receive(
                    ClientMessage.Event(number: Int64(number), stage: "counter", name: "increment", value: nil),
                    now: machine.now))
        }
        machine.endTurn()
        let sent = machine.take()
        let errors = sent.filter { $0["t"] == "error" }
        #expect(errors.count == 1)
        #expect(errors[0]["code"] == "rate-limited" && errors[0]["from"] == 3 && errors[0]["n"] == 6)
        #expect(machine.state.stages.entries[0].stage.document == ["count": 2])
    }

    @Test("An acknowledgement of a sequence number never sent is refused as bad-ack")
    func badAck() {
        let (machine, _) = Self.joined()
        machine.perform(machine.state.acknowledge(seq: 50))
        machine.endTurn()
        #expect(machine.take().map { $0["code"] } == ["bad-ack"])
    }

    @Test("A slot value that cannot be shown is reported as bad-slot-value")
    func badSlotValue() {
        let (machine, _) = Self.joined()
        machine.perform(machine.state.slotFailed("slot \"x\" got NaN"))
        machine.endTurn()
        #expect(machine.take().map { $0["code"] } == ["bad-slot-value"])
    }

    @Test("Errors waiting for a slow client are bounded; the oldest go first")
    func advisoriesBounded() {
        var limits = SessionLimits()
        limits.pendingAdvisories = 3
        let (machine, _) = Self.joined(limits: limits)
        for number in 1...10 {
            // Alternating codes, so no two neighbours merge into one error for a run.
            let stage = number % 2 == 0 ? "counter" : "nowhere"
            machine.perform(
                machine.state.receive(
                    ClientMessage.Event(number: Int64(number), stage: stage, name: "explode", value: nil),
                    now: machine.now))
        }
        machine.endTurn(unsentBytes: 0)
        let errors = machine.take().filter { $0["t"] == "error" }
        #expect(errors.count == 3)
        #expect(machine.logs.contains { $0.contains("dropped an advisory error") })
    }
}
