import FootlightJSON

extension Wire {
    /// A message the client sends: its `t`, and the keys it may carry. Its Swift form is
    /// the ``ClientMessage`` case of the same name, below.
    public enum Client: String, CaseIterable, Sendable {
        case join, event, ack, ping, report

        /// The type a message's `t` names, or nil. An event, most of what a page sends, is
        /// found by one compare (the generated `init(rawValue:)` searches every case:
        /// about 280 instructions a click, by callgrind).
        public static func named(_ type: String) -> Client? {
            type == Client.event.rawValue ? .event : Client(rawValue: type)
        }

        /// The keys besides `t`, in the order they are written.
        public var keys: [Key] {
            switch self {
            case .join: [.version, .token, .seq, .path, .restore]
            case .event: [.number, .stage, .name, .value]
            case .ack: [.seq]
            case .ping: []
            case .report: [.stage, .message]
            }
        }

        /// The message of this type with `members`, in their order; nil values are left out.
        public func message(_ members: KeyValuePairs<Key, JSON?> = [:]) -> JSON {
            Wire.message(rawValue, members)
        }
    }
}

/// A message from the browser (or a test client), protocol v1.
public enum ClientMessage: Sendable, Equatable {
    /// Start a session, or resume the one `token` names, having applied every server
    /// message up to sequence number `lastSeq`. With `restore`, a session the server
    /// does not have is rebuilt as the page shows it. A malformed `restore` does not
    /// refuse the join (the page would never get back in): it is left out, and
    /// `refusedRestore` says why.
    case join(
        version: Int, resume: Resume?, path: String?, restore: Restore? = nil, refusedRestore: ProtocolError? = nil)
    /// A user event numbered `number` by the client (1, 2, 3, … per session).
    case event(Event)
    /// The client has applied every server message up to `seq`.
    case ack(seq: Int64)
    /// Liveness probe; answered by `pong`.
    case ping
    /// A binding error the page found, for the server log.
    case report(stage: String, message: String)

    /// What a resuming client knows.
    public struct Resume: Sendable, Equatable {
        public let token: String
        public let lastSeq: Int64
    }

    /// A user event.
    public struct Event: Sendable, Equatable {
        public let number: Int64
        public let stage: String
        public let name: String
        public let value: JSON?

        public init(number: Int64, stage: String, name: String, value: JSON?) {
            self.number = number
            self.stage = stage
            self.name = name
            self.value = value
        }
    }

    /// The protocol version this server speaks.
    public static let version = 1

    /// Decodes one message from its JSON text.
    public init(bytes: UnsafeRawBufferPointer) throws(ProtocolError) {
        let json: JSON
        do {
            json = try JSON.parse(bytes, options: JSONReadOptions(maximumDepth: Self.maximumDepth))
        } catch {
            throw ProtocolError(.malformedJSON, error.description)
        }
        try self.init(json: json)
    }

    /// Inbound messages are small and flat; deeper nesting is refused early.
    static let maximumDepth = 32

    /// Decodes one message from parsed JSON.
    public init(json: JSON) throws(ProtocolError) {
        guard case .object(let members) = json else {
            throw ProtocolError(.badMessage, "a message must be a JSON object, not \(json.kindName)")
        }
        guard case .string(let type)? = members[.type] else {
            throw ProtocolError(.badMessage, "a message needs a string member \"t\" naming its type")
        }
        switch Wire.Client.named(type) {
        case .join:
            let version = try Self.integer(members, .version, in: type)
            guard version == Int64(Self.version) else {
                throw ProtocolError(
                    .unsupportedVersion, "this server speaks protocol v\(Self.version), not v\(version)")
            }
            var resume: Resume?
            if let tokenValue = members[.token] {
                guard case .string(let token) = tokenValue else {
                    throw ProtocolError(.badMessage, "\"token\" of join must be a string")
                }
                resume = Resume(token: token, lastSeq: try Self.integer(members, .seq, in: type))
            }
            var path: String?
            if let pathValue = members[.path] {
                guard case .string(let text) = pathValue, text.utf8.count <= 2048 else {
                    throw ProtocolError(.badMessage, "\"path\" of join must be a string of at most 2048 bytes")
                }
                path = text
            }
            var restore: Restore?
            var refusal: ProtocolError?
            if let json = members[.restore] {
                do throws(ProtocolError) {
                    restore = try Restore(json: json)
                } catch {
                    refusal = error
                }
            }
            self = .join(version: Int(version), resume: resume, path: path, restore: restore, refusedRestore: refusal)
        case .event:
            let number = try Self.integer(members, .number, in: type)
            guard number > 0 else { throw ProtocolError(.badMessage, "event numbers start at 1, got \(number)") }
            self = .event(
                Event(
                    number: number, stage: try Self.string(members, .stage, in: type, eventNumber: number),
                    name: try Self.string(members, .name, in: type, eventNumber: number),
                    value: members[.value]))
        case .ack:
            self = .ack(seq: try Self.integer(members, .seq, in: type))
        case .ping:
            self = .ping
        case .report:
            guard case .string(let message)? = members[.message] else {
                throw ProtocolError(.badMessage, "\"message\" of report must be a string")
            }
            let stage = members[.stage]?.stringValue ?? ""
            self = .report(
                stage: Self.prefix(of: stage, utf8Bytes: 128), message: Self.prefix(of: message, utf8Bytes: 1000))
        case nil:
            throw ProtocolError(.badMessage, "unknown message type \"\(type)\"")
        }
    }

    /// The longest prefix of `text` that fits in `limit` UTF-8 bytes, cut between
    /// Unicode scalars (cutting the bytes could split one, and decoding the stray bytes
    /// would add a 3-byte replacement character, past the limit).
    static func prefix(of text: String, utf8Bytes limit: Int) -> String {
        var size = 0
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            size += UTF8.width(scalar)
            guard size <= limit else { break }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    private static func integer(
        _ members: JSONObject, _ key: Wire.Key, in type: String
    ) throws(ProtocolError) -> Int64 {
        guard case .int(let value)? = members[key], value >= 0 else {
            throw ProtocolError(.badMessage, "\"\(key.rawValue)\" of \(type) must be a non-negative integer")
        }
        return value
    }

    private static func string(
        _ members: JSONObject, _ key: Wire.Key, in type: String, eventNumber: Int64
    ) throws(ProtocolError) -> String {
        guard case .string(let value)? = members[key], !value.isEmpty, value.utf8.count <= 128 else {
            throw ProtocolError(
                .badMessage, "\"\(key.rawValue)\" of \(type) must be a string of 1 to 128 bytes",
                eventNumber: eventNumber)
        }
        return value
    }
}
