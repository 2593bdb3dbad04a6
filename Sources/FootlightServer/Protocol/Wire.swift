import Footlight
import FootlightJSON
import OrderedCollections

/// The wire of protocol v1, spelled once: every message type with its `t` and the keys
/// it carries, and every member name the messages hold at any depth.
///
/// Each type is listed beside its Swift message: ``Wire/Server`` in `ServerMessage.swift`
/// and ``Wire/Client`` in `ClientMessage.swift`, so that a new message is one file of
/// Swift; the names (``Wire/Key``) and the runtime's words are here.
/// ``ServerMessage``'s encoders, ``ClientMessage``'s decoder, the test client's mirror
/// and the tools spell messages with these names; the browser runtime spells the same
/// names once, in the wire block of `constants.js`, and a unit test reads that file
/// against this table both ways (see "Where the wire is defined" in <doc:Protocol>).
public enum Wire {
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

    /// The message of type `type` with `members`, in their order; nil values are left out.
    static func message(_ type: String, _ members: KeyValuePairs<Key, JSON?>) -> JSON {
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
