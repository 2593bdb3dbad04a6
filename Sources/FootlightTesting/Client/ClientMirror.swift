import Footlight
import FootlightJSON
import FootlightServer

/// What a protocol v1 client knows: the session token, a mirror of each stage's
/// document, the last server sequence number applied, and the events sent but not
/// yet acknowledged. Pure state: feed it server messages, it says what to send.
public struct ClientMirror: Sendable {
    /// The session token from `joined`.
    public private(set) var token: String?
    /// Each mounted stage's document, as the server's patches left it.
    public private(set) var documents: [String: JSON] = [:]
    /// The highest sequence number applied.
    public private(set) var lastSeq: Int64 = 0
    /// Events sent and not yet acknowledged, in order (re-sent after a resume).
    public private(set) var unacknowledged: [(number: Int64, message: JSON)] = []
    /// The number the next event gets.
    public private(set) var nextEvent: Int64 = 1
    /// The events of an earlier session still unacknowledged when a join started a new
    /// one: never sent again (one may have been applied), as the page reports them.
    public private(set) var lost: [JSON] = []
    /// Every `error` message received, in order.
    public private(set) var errors: [ReceivedError] = []
    /// How many `joined` messages said `resumed`, and how many were snapshots.
    public private(set) var resumes = 0
    public private(set) var snapshots = 0
    /// Messages received, by type.
    public private(set) var counts: [String: Int] = [:]
    /// Problems the mirror found with the server's messages (a patch that does not
    /// apply, a sequence number going backwards). A correct server leaves it empty.
    public private(set) var violations: [String] = []
    /// Whether a `bye` arrived.
    public private(set) var saidBye = false
    /// Mounted stage instances in the order they were mounted, with their template,
    /// placement and address; components are in ``components``.
    public private(set) var stages: [(id: String, template: String, placement: String, url: String?)] = []
    /// Each mounted component by instance id: its template, and where it sits (its
    /// parent's instance id and its host).
    public private(set) var components: [String: (template: String, parent: String, host: ComponentHost)] = [:]
    /// URLs the server asked to open, in order.
    public private(set) var openedURLs: [String] = []
    /// Every mount, unmount, open, run, address and other message received (a snapshot's
    /// mounts too; ``SceneCommand/message(type:template:_:)``), in order.
    public private(set) var commands: [SceneCommand] = []
    /// Mounts announced by the last `joined` and not yet received.
    public private(set) var pendingMounts = 0
    /// For a session rebuilt from a `restore`, the new instance id of each stage the
    /// join named (nil: not rebuilt), from the last `joined`.
    public private(set) var rebuilt: [String?]?

    /// Joined, with the whole page mounted.
    public var isReady: Bool { token != nil && pendingMounts == 0 }

    public init() {}

    /// Numbers a new event and remembers it until acknowledged; returns the message.
    public mutating func makeEvent(_ name: String, stage: String, value: JSON?) -> JSON {
        let message = Wire.Client.event.message([
            .number: .int(nextEvent), .stage: .string(stage), .name: .string(name), .value: value,
        ])
        unacknowledged.append((nextEvent, message))
        nextEvent += 1
        return message
    }

    /// Applies one server message. Returns the messages to send in reply (events to
    /// re-send after a resume).
    public mutating func apply(_ message: JSON) -> [JSON] {
        guard let type = message[.type]?.stringValue else {
            violations.append("a message without \"t\": \(message)")
            return []
        }
        counts[type, default: 0] += 1
        switch Wire.Server(rawValue: type) {
        case .joined:
            token = message[.token]?.stringValue
            pendingMounts = if case .int(let count)? = message[.mounts] { Int(count) } else { 0 }
            rebuilt = message[.rebuilt]?.arrayValue?.map(\.stringValue)
            if message[.resumed] == true { resumes += 1 }
            if message[.snapshot] == true {
                snapshots += 1
                documents.removeAll()
                stages.removeAll()
                components.removeAll()
                lastSeq = 0  // the mounts that follow start a new history
            }
            if message[.resumed] == false {
                // A new session: events of an expired one cannot be delivered to it.
                documents.removeAll()
                stages.removeAll()
                components.removeAll()
                lastSeq = 0
                lost += unacknowledged.map(\.message)
                unacknowledged.removeAll()
                nextEvent = 1
            }
            if case .int(let consumed)? = message[.events] {
                consumeEvents(through: consumed)
            }
            // Everything still unacknowledged is re-sent, in order.
            return unacknowledged.map(\.message)
        case .mount:
            guard let seq = sequence(message), let stage = message[.stage]?.stringValue,
                let document = message[.document]
            else { return [] }
            documents[stage] = document
            pendingMounts = max(0, pendingMounts - 1)
            stages.removeAll { $0.id == stage }
            let template = message[.template]?.stringValue ?? stage
            if let parent = message[.parent]?.stringValue {
                let host = ComponentHost(name: message[.at]?.stringValue ?? "", row: message[.id]?.stringValue)
                components[stage] = (template, parent, host)
                let parentTemplate = self.template(of: parent) ?? parent
                if documents[parent] == nil {
                    violations.append("component \"\(stage)\" mounted in stage \"\(parent)\", which is not mounted")
                } else if let row = host.row, !Self.hasRow(row, in: documents[parent]!) {
                    violations.append(
                        "component \"\(stage)\" mounted for row \"\(row)\", which no list of its parent has yet")
                }
                commands.append(.mountComponent(template: template, in: parentTemplate, at: host))
            } else {
                let placement = message[.placement]?.stringValue ?? Placement.root.rawValue
                stages.append((stage, template, placement, message[.url]?.stringValue))
                commands.append(
                    .mount(
                        template: template, placement: Placement(rawValue: placement) ?? .root,
                        url: message[.url]?.stringValue))
            }
            lastSeq = seq
        case .unmount:
            guard let seq = sequence(message), let stage = message[.stage]?.stringValue else { return [] }
            if documents.removeValue(forKey: stage) == nil {
                violations.append("unmount \(seq) of stage \"\(stage)\", which is not mounted")
            }
            if let component = components.removeValue(forKey: stage) {
                commands.append(.unmountComponent(template: component.template))
            } else if let entry = stages.first(where: { $0.id == stage }) {
                commands.append(
                    .unmount(template: entry.template, placement: Placement(rawValue: entry.placement) ?? .root))
            }
            if components.values.contains(where: { $0.parent == stage }) {
                violations.append("stage \"\(stage)\" unmounted before its components")
            }
            stages.removeAll { $0.id == stage }
            lastSeq = seq
        case .open:
            guard let seq = sequence(message), let url = message[.url]?.stringValue else { return [] }
            openedURLs.append(url)
            commands.append(.open(url: url))
            lastSeq = seq
        case .run:
            guard let seq = sequence(message), let stage = message[.stage]?.stringValue,
                case .array(let items)? = message[.command]
            else { return [] }
            let decoded = items.compactMap(ClientCommand.init(json:))
            if decoded.count != items.count { violations.append("run \(seq) holds a command no client knows") }
            commands.append(.run(template: template(of: stage) ?? stage, decoded))
            lastSeq = seq
        case .patch:
            guard let seq = sequence(message), let stage = message[.stage]?.stringValue, let ops = message[.operations]
            else { return [] }
            do {
                guard let document = documents[stage] else {
                    violations.append("patch \(seq) for stage \"\(stage)\", which is not mounted")
                    return []
                }
                documents[stage] = try JSONPatch(json: ops).applied(to: document)
            } catch {
                violations.append("patch \(seq) does not apply: \(error)")
            }
            lastSeq = seq
            if case .int(let acknowledged)? = message[.ack] { consumeEvents(through: acknowledged) }
        case .address:
            guard let seq = sequence(message), let stage = message[.stage]?.stringValue,
                let url = message[.url]?.stringValue
            else { return [] }
            if let index = stages.firstIndex(where: { $0.id == stage }) {
                stages[index].url = url
                commands.append(
                    .address(template: stages[index].template, url: url, replace: message[.replace] == true))
            } else {
                violations.append("address \(seq) for stage \"\(stage)\", which is not mounted")
            }
            lastSeq = seq
        case .ack:
            if case .int(let acknowledged)? = message[.number] { consumeEvents(through: acknowledged) }
        case .error:
            let number: Int64? = if case .int(let n)? = message[.number] { n } else { nil }
            let first: Int64? = if case .int(let n)? = message[.from] { n } else { nil }
            errors.append(
                ReceivedError(
                    code: message[.code]?.stringValue ?? "", message: message[.message]?.stringValue ?? "",
                    eventNumber: number, firstEventNumber: first))
            if let number { consumeEvents(through: number) }
        case .bye:
            saidBye = true
        case nil:
            violations.append("unknown message type \"\(type)\"")
            record(message, type: type)
        default:
            record(message, type: type)
        }
        return []
    }

    /// A message the mirror gives no meaning of its own (`pong`, a type of the table
    /// without a case above, or one the table lacks): applied in order when it bears
    /// state (its `seq`, and the events its `ack` consumes), as the runtime does, and
    /// recorded in ``commands`` as the page was told it.
    private mutating func record(_ message: JSON, type: String) {
        if message[.seq] != nil {
            guard let seq = sequence(message) else { return }
            lastSeq = seq
        }
        if case .int(let acknowledged)? = message[.ack] { consumeEvents(through: acknowledged) }
        var members = message.objectValue ?? [:]
        for key in [Wire.Key.type, .seq, .stage, .ack] { members[key] = nil }
        let stage = message[.stage]?.stringValue
        commands.append(.message(type: type, template: stage.map { template(of: $0) ?? $0 }, .object(members)))
    }

    private mutating func sequence(_ message: JSON) -> Int64? {
        guard case .int(let seq)? = message[.seq] else {
            violations.append("a \(message[.type]?.stringValue ?? "?") without seq")
            return nil
        }
        if seq <= lastSeq {
            violations.append("seq \(seq) after \(lastSeq): applied twice or out of order")
        } else if seq != lastSeq + 1, lastSeq != 0 {
            violations.append("seq \(seq) after \(lastSeq): messages in between were never received")
        }
        return seq
    }

    /// The template of the stage or component `id`, if it is mounted.
    public func template(of id: String) -> String? {
        components[id]?.template ?? stages.first { $0.id == id }?.template
    }

    /// Whether a list (a slot holding an array) of `document` has a row with id `row`.
    private static func hasRow(_ row: String, in document: JSON) -> Bool {
        guard case .object(let slots) = document else { return false }
        return slots.values.contains { $0.arrayValue?.contains { $0[.id]?.stringValue == row } == true }
    }

    private mutating func consumeEvents(through number: Int64) {
        unacknowledged.removeAll { $0.number <= number }
    }
}
