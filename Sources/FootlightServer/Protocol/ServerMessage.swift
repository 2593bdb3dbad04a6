import Footlight
import FootlightJSON

extension Wire {
    /// A message the server sends: its `t`, and the keys it may carry. Its Swift form is
    /// the ``ServerMessage`` case of the same name, below.
    public enum Server: String, CaseIterable, Sendable {
        case joined, mount, unmount, open, run, patch, address, ack, error, pong, bye

        /// The keys besides `t`, in the order the server writes them.
        public var keys: [Key] {
            switch self {
            case .joined:
                [.version, .token, .resumed, .events, .maximumMessageBytes, .snapshot, .mounts, .rebuilt]
            case .mount: [.seq, .stage, .template, .document, .parent, .at, .id, .placement, .url, .events]
            case .unmount: [.seq, .stage]
            case .open: [.seq, .url]
            case .run: [.seq, .stage, .command]
            case .patch: [.seq, .stage, .operations, .ack]
            case .address: [.seq, .stage, .url, .replace]
            case .ack: [.number]
            case .error: [.code, .message, .number, .from]
            case .pong: []
            case .bye: [.reason]
            }
        }

        /// The message of this type with `members`, in their order; nil values are left out.
        public func message(_ members: KeyValuePairs<Key, JSON?> = [:]) -> JSON {
            Wire.message(rawValue, members)
        }
    }
}

/// A message to the browser, protocol v1. Messages with a `seq` carry state and are
/// replayed after a resume; the others are advisory.
public enum ServerMessage: Sendable, Equatable {
    /// The session is ready. It names the server's protocol version (`v`,
    /// ``ClientMessage/version``), which the page's runtime checks against its own.
    /// `resumed` is false for a new session; `snapshot` tells a resuming client to drop
    /// its documents because full mounts follow.
    /// `events` is the highest client event number consumed so far.
    /// `mounts` is the number of `mount` messages that follow at once (the whole page).
    /// `rebuilt`, for a new session rebuilt from the page's `restore`, gives each
    /// restored stage's new instance id, in the order the page named them (nil for one
    /// that was not rebuilt).
    case joined(
        token: String, resumed: Bool, snapshot: Bool, events: Int64, mounts: Int, maximumMessageBytes: Int,
        rebuilt: [String?]? = nil)
    /// A stage and its full view document.
    case mount(Mount)
    /// A stage is popped or dismissed.
    case unmount(seq: Int64, stage: String)
    /// Open an external URL in a new tab.
    case open(seq: Int64, url: String)
    /// Commands the page carries out at once, in the stage's element.
    case run(seq: Int64, stage: String, commands: [ClientCommand])
    /// Changes to a mounted stage's document; `ack` acknowledges client events up to it.
    case patch(seq: Int64, stage: String, patch: JSONPatch, ack: Int64?)
    /// A stage's address (``Stage/bindAddress(_:)``): the page shows `url` in its address
    /// bar, in a new History entry or, when `replace`, in place of the current one.
    case address(seq: Int64, stage: String, url: String, replace: Bool)
    /// Client events up to `number` are consumed (applied or refused with an error).
    case ack(number: Int64)
    /// A refused message.
    case error(ProtocolError)
    /// Answer to `ping`.
    case pong
    /// The server is going away; the client may resume later.
    case bye(reason: String)

    /// A stage instance placed in the page.
    public struct Mount: Sendable, Equatable {
        public let seq: Int64
        /// The instance id, unique in the session; events name it.
        public let stage: String
        /// The page template to clone.
        public let template: String
        public let document: JSON
        public let placement: Placement
        public let url: String?
        /// Event pacing (``EventOptions``) by event name.
        public let events: JSON
        /// For a component: where it sits, in its parent (the page puts it there
        /// instead of at `placement`).
        public let component: ComponentPlacement?
    }

    /// The sequence number for state-bearing messages.
    public var seq: Int64? {
        switch self {
        case .mount(let mount): mount.seq
        case .patch(let seq, _, _, _), .unmount(let seq, _), .open(let seq, _), .run(let seq, _, _),
            .address(let seq, _, _, _):
            seq
        default: nil
        }
    }

    /// The message as a JSON object, spelled by the ``Wire`` table.
    public var json: JSON {
        switch self {
        case .joined(let token, let resumed, let snapshot, let events, let mounts, let maximumMessageBytes, let rebuilt):
            return Wire.Server.joined.message([
                .version: .int(Int64(ClientMessage.version)), .token: .string(token), .resumed: .bool(resumed),
                .events: .int(events), .maximumMessageBytes: .int(Int64(maximumMessageBytes)),
                .snapshot: snapshot ? true : nil, .mounts: mounts > 0 ? .int(Int64(mounts)) : nil,
                .rebuilt: rebuilt.map { .array($0.map { $0.map(JSON.string) ?? .null }) },
            ])
        case .mount(let mount):
            let component = mount.component
            let events: JSON? =
                if case .object(let events) = mount.events, !events.isEmpty { mount.events } else { nil }
            return Wire.Server.mount.message([
                .seq: .int(mount.seq), .stage: .string(mount.stage), .template: .string(mount.template),
                .document: mount.document, .parent: component.map { .string($0.parent) },
                .at: component.map { .string($0.host.name) }, .id: component?.host.row.map(JSON.string),
                .placement: component == nil && mount.placement != .root ? .string(mount.placement.rawValue) : nil,
                .url: mount.url.map(JSON.string), .events: events,
            ])
        case .unmount(let seq, let stage):
            return Wire.Server.unmount.message([.seq: .int(seq), .stage: .string(stage)])
        case .open(let seq, let url):
            return Wire.Server.open.message([.seq: .int(seq), .url: .string(url)])
        case .run(let seq, let stage, let commands):
            return Wire.Server.run.message([
                .seq: .int(seq), .stage: .string(stage), .command: .array(commands.map(\.json)),
            ])
        case .patch(let seq, let stage, let patch, let ack):
            return Wire.Server.patch.message([
                .seq: .int(seq), .stage: .string(stage), .operations: patch.json, .ack: ack.map(JSON.int),
            ])
        case .address(let seq, let stage, let url, let replace):
            return Wire.Server.address.message([
                .seq: .int(seq), .stage: .string(stage), .url: .string(url), .replace: replace ? true : nil,
            ])
        case .ack(let number):
            return Wire.Server.ack.message([.number: .int(number)])
        case .error(let error):
            return Wire.Server.error.message([
                .code: .string(error.code.rawValue), .message: .string(error.message),
                .number: error.eventNumber.map(JSON.int), .from: error.firstEventNumber.map(JSON.int),
            ])
        case .pong:
            return Wire.Server.pong.message()
        case .bye(let reason):
            return Wire.Server.bye.message([.reason: .string(reason)])
        }
    }

    /// The compact JSON text, as sent in one WebSocket text frame.
    ///
    /// - Throws: ``JSONError`` when a document holds a value JSON cannot carry
    ///   (NaN or infinity placed in a slot as raw `JSON`, or nesting past the limit).
    public func encoded() throws(JSONError) -> [UInt8] {
        try json.serializedBytes()
    }

    /// The same text as ``encoded()``; a patch's operations are taken from `shared`
    /// when another session sent the same ones (a shared service's change), so they are
    /// written once for all of them.
    package func encoded(sharing shared: SharedOperations) throws(JSONError) -> [UInt8] {
        guard case .patch(let seq, let stage, let patch, let ack) = self else { return try encoded() }
        var text: [UInt8] = []
        text.reserveCapacity(stage.utf8.count + 64 * (1 + patch.operations.count))
        text += Self.patchOpening
        text.append(decimal: seq)
        text += Self.stageMember
        try JSON.appendCompactString(stage, to: &text)
        text += Self.operationsMember
        try shared.appendText(of: patch.operations, to: &text)
        if let ack {
            text += Self.ackMember
            text.append(decimal: ack)
        }
        text.append(UInt8(ascii: "}"))
        return text
    }

    /// `{"t":"patch","seq":`, `,"stage":`, `,"ops":` and `,"ack":`, as the table spells
    /// them, made once (a patch is written per session).
    private static let patchOpening = Wire.opening(Wire.Server.patch.rawValue, .seq)
    private static let stageMember = Wire.member(.stage)
    private static let operationsMember = Wire.member(.operations)
    private static let ackMember = Wire.member(.ack)
}
