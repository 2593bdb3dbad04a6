import Footlight
import FootlightJSON
import OrderedCollections

/// The wire of protocol v1, spelled once: every message type with its `t` and the keys
/// it carries, and every member name the messages hold at any depth.
///
/// ``ServerMessage``'s encoders, ``ClientMessage``'s decoder, the test client's mirror
/// and the tools spell messages with these names; the browser runtime spells the same
/// names once, in the wire block of `constants.js`, and a unit test reads that file
/// against this table both ways (see "Where the wire is defined" in <doc:Protocol>).
public enum Wire {
    /// A message the client sends: its `t`, and the keys it may carry.
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

    /// A message the server sends: its `t`, and the keys it may carry.
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

    /// A member name, at any depth of a message.
    public enum Key: String, CaseIterable, Sendable {
        // Members of messages.
        /// Every message's type.
        case type = "t"
        /// `join`'s and `joined`'s protocol version.
        case version = "v"
        case token, seq, path, restore
        /// An event's number; `ack`'s and `error`'s last event consumed.
        case number = "n"
        case stage, name, value, message, resumed, events, snapshot, mounts, rebuilt, template
        /// `joined`'s largest message the server reads, in bytes.
        case maximumMessageBytes = "max"
        /// `mount`'s view document.
        case document = "doc"
        /// A mount's (and a restored stage's) placement: `root`, `push` or `modal`.
        case placement = "place"
        /// A component's parent stage.
        case parent = "in"
        /// A component's host in its parent; a client command's CSS selector.
        case at
        /// A component's row; a list row's id in an event's value.
        case id
        case url
        /// `address`'s choice of History entry: true replaces the current one.
        case replace
        /// `patch`'s RFC 6902 operations.
        case operations = "ops"
        /// `patch`'s last event consumed.
        case ack
        case code
        /// `error`'s first event of a refused run.
        case from
        case reason
        // Members of a restored stage (`restore` of `join`).
        case values
        // Event options (`events` of `mount`).
        case debounce, throttle, commit, single, keep
        case repeats = "repeat"
        case run, local, keys
        /// The slots an event sets (`set` of an event's options).
        case set
        // Members of a client command (`do` of `run`).
        /// A client command's name; `run`'s list of commands.
        case command = "do"
        case text
        case className = "class"
        case attr, hook
        // Members of an event's value.
        /// A key press's key (`keydown`, `keyup`).
        case key
    }

    /// The event name the page sends for the browser's back button (`K.BACK`).
    public static let backEvent = "@back"
    /// The event name the page sends when the visitor goes to another address of a stage
    /// (`K.ADDRESS`'s event, ``Stage/addressEvent``).
    public static let addressEvent = Stage.addressEvent

    /// Values the runtime knows by name: placements and the blur commit.
    public static let words: [String] = ["root", "push", "modal", "blur"]

    /// Every name of the wire: types, keys and words, as `constants.js` lists them.
    public static var names: Set<String> {
        Set(Client.allCases.map(\.rawValue) + Server.allCases.map(\.rawValue) + Key.allCases.map(\.rawValue) + words)
    }

    private static func message(_ type: String, _ members: KeyValuePairs<Key, JSON?>) -> JSON {
        var object: JSONObject = [Key.type.rawValue: .string(type)]
        for (key, value) in members {
            if let value { object[key.rawValue] = value }
        }
        return .object(object)
    }
}

extension JSON {
    /// The member named `key` when this is an object that has it, otherwise `nil`.
    public subscript(_ key: Wire.Key) -> JSON? {
        self[key.rawValue]
    }
}

extension OrderedDictionary where Key == String, Value == JSON {
    /// The member named `key`, if there is one; setting nil removes it.
    public subscript(_ key: Wire.Key) -> JSON? {
        get { self[key.rawValue] }
        set { self[key.rawValue] = newValue }
    }
}
