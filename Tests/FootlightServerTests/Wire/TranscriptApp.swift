import Footlight
import FootlightJSON

@testable import FootlightServer

/// The server side of a ``Transcript``: a session machine whose app shows a counter at
/// the root, fed the transcript's client messages as the server's core feeds a session
/// (decoded by ``ClientMessage``; `ping` answered with `pong` by the core itself), and
/// its app actions:
/// - `{"push": template, "url": …}`, `{"modal": template}`: presents a new stage;
///   a pushed one takes addresses, showing each the page goes to;
/// - `{"address": url, "stage": id, "replace": true?}`: a pushed stage's Director shows
///   another address;
/// - `{"component": template, "in": parent, "at": host}`: places a new component;
/// - `{"pop": "push" | "modal"}`: removes the top stage of that placement, with its
///   components;
/// - `{"open": url}`, `{"run": [command], "stage": id}`: a context command;
/// - `{"set": n}`: the counter's count changes outside any event;
/// - `{"end": reason}`: the app ends the session.
final class TranscriptApp {
    private(set) var machine: SessionMachine
    private(set) var counter = CountingStage()
    private let limits: SessionLimits
    private var connection: ConnectionID = 1
    private var stages: [Stage] = []
    /// Each pushed stage's address output, by instance id.
    private var addresses: [String: PassthroughSubject<Address, Never>] = [:]
    private var restarts = 0

    init(_ transcript: Transcript) {
        var limits = SessionLimits()
        if let count = transcript.replayMessages { limits.replayMessages = count }
        self.limits = limits
        machine = Self.machine(token: "token-1", limits: limits, counter: counter)
    }

    private static func machine(token: String, limits: SessionLimits, counter: CountingStage) -> SessionMachine {
        SessionMachine(token: token, limits: limits) { machine, _ in _ = machine.present(counter.stage) }
    }

    /// The messages the server sent since the last call, as their JSON text.
    func sent() throws -> [String] {
        try machine.take().map { try $0.serialized() }
    }

    func receive(_ json: JSON) throws {
        switch try ClientMessage(json: json) {
        case .join(_, let resume, let path, let restore, _):
            // As the server's core: a token it does not know, with what the page shows,
            // starts a session rebuilt from that.
            if let resume, resume.token != machine.state.token {
                guard let restore else {
                    throw Transcript.TranscriptError(description: "a resume of an unknown token with no restore")
                }
                machine.attach(connection, path: path, restore: restore)
            } else {
                machine.attach(connection, resumeAfter: resume?.lastSeq, path: path)
            }
        case .event(let event):
            machine.perform(machine.state.receive(event, now: machine.now))
            machine.endTurn()
        case .ack(let seq):
            machine.perform(machine.state.acknowledge(seq: seq))
            machine.endTurn()
        case .ping:
            machine.sent.append(ServerMessage.pong.json)
        case .report(let stage, let message):
            machine.perform(machine.state.report(stage: stage, message: message, now: machine.now))
        }
    }

    func cut() {
        machine.perform(machine.state.detach(connection))
        connection += 1
    }

    /// The server restarts: a new process, which knows no session (its next one is
    /// `token-2`, …) and shows a new counter.
    func restart() {
        cut()
        restarts += 1
        counter = CountingStage()
        machine = Self.machine(token: "token-\(restarts + 1)", limits: limits, counter: counter)
    }

    func perform(_ action: JSON) throws {
        if let template = action["push"]?.stringValue {
            let stage = Stage(name: template)
            let address = PassthroughSubject<Address, Never>()
            stage.bindAddress(address)
            stage.onAddress(send: address)
            stages.append(stage)
            addresses[machine.present(stage, .push, url: action["url"]?.stringValue)] = address
        } else if let url = action["address"]?.stringValue, let id = action["stage"]?.stringValue {
            addresses[id]?.send(Address(url, replaces: action["replace"] == true))
        } else if let template = action["modal"]?.stringValue {
            let stage = Stage(name: template)
            stages.append(stage)
            _ = machine.present(stage, .modal)
        } else if let template = action["component"]?.stringValue, let parent = action["in"]?.stringValue,
            let host = action["at"]?.stringValue
        {
            let stage = Stage(name: template)
            stages.append(stage)
            machine.perform(machine.state.present(stage, in: parent, at: ComponentHost(name: host)).actions)
        } else if let place = action["pop"]?.stringValue, let placement = Placement(rawValue: place) {
            machine.perform(machine.state.removeTop(placement))
        } else if let url = action["open"]?.stringValue {
            machine.perform(machine.state.open(url: url))
        } else if let commands = action["run"]?.arrayValue, let stage = action["stage"]?.stringValue {
            machine.perform(machine.state.run(commands.compactMap(ClientCommand.init(json:)), in: stage))
        } else if case .int(let count)? = action["set"] {
            counter.set(Int(count))
        } else if let reason = action["end"]?.stringValue {
            machine.perform(machine.state.end(reason: reason))
        } else {
            throw Transcript.TranscriptError(description: "an app action the replay does not know: \(action)")
        }
        machine.endTurn()
    }
}
