import FootlightJSON

/// How the page paces an event before sending it, declared in Swift on the input
/// binding and carried out by the runtime in the page.
public struct EventOptions: Sendable, Equatable {
    /// Send only after the user paused this long (typing in a search field).
    public var debounce: Duration?
    /// Send at most once per this interval (dragging a slider).
    public var throttle: Duration?
    /// Send the value when the control loses focus instead of on every change.
    public var commitOnBlur: Bool
    /// One at a time per element: while its event awaits the server, further
    /// activations of that element are ignored (opening a page, presenting a dialog,
    /// placing an order: a double click or clicks queued while offline count once).
    /// Without it a form's submits queue: each goes once, in order, after the form's
    /// input (three quick add-and-Enter rounds add three items).
    public var oneAtATime: Bool
    /// The page keeps the last value it sent, and offers it again when the session is
    /// rebuilt (after a restart, on another node, in a duplicated tab): the server then
    /// replays it to the rebuilt stage. For values that set state (a typed amount, a
    /// chosen order). The page never keeps the value of a password field, nor of a form
    /// that has one, whatever the declaration.
    public var recoverable: Bool
    /// Applying the event twice does no harm (it sets state rather than acts). Sent but
    /// not acknowledged when the session was lost, it is sent again to the rebuilt
    /// session; any other such event (a bid, a sign-up) is reported at its control as
    /// not sent, never applied twice.
    public var safeToRepeat: Bool
    /// Commands the page runs itself the moment the event fires, before (and without
    /// waiting for) the server.
    public var commands: [ClientCommand]
    /// The page only runs ``commands`` and sends nothing (``Stage/on(_:runs:)``).
    public var pageOnly: Bool
    /// For a keyboard event (`data-on-keydown`, `data-on-keyup`): the keys it is sent
    /// for, as the browser names them (`["Enter", "Escape"]`); empty for every key.
    public var keys: [String]
    /// Slots of the stage's document the event sets, by name: the page shows the value
    /// at once in the controls bound to the slot (`data-value`), the moment the event
    /// is sent (after its own value was read), and the server sets the slot to it when
    /// the event arrives, before the Director hears of it. `["newTitle": ""]` on a
    /// submit empties the field, so keys typed right after Enter go into an empty one.
    public var sets: [String: JSON]

    public init(
        debounce: Duration? = nil, throttle: Duration? = nil, commitOnBlur: Bool = false, oneAtATime: Bool = false,
        recoverable: Bool = false, safeToRepeat: Bool = false, commands: [ClientCommand] = [], pageOnly: Bool = false,
        keys: [String] = [], sets: [String: JSON] = [:]
    ) {
        self.debounce = debounce
        self.throttle = throttle
        self.commitOnBlur = commitOnBlur
        self.oneAtATime = oneAtATime
        self.recoverable = recoverable
        self.safeToRepeat = safeToRepeat
        self.commands = commands
        self.pageOnly = pageOnly
        self.keys = keys
        self.sets = sets
    }

    /// Sent at once: no pacing.
    public static let immediate = EventOptions()

    /// Waits for a pause of `interval`.
    public static func debounce(_ interval: Duration) -> EventOptions { EventOptions(debounce: interval) }

    /// At most once per `interval`.
    public static func throttle(_ interval: Duration) -> EventOptions { EventOptions(throttle: interval) }

    /// When the control loses focus.
    public static let commitOnBlur = EventOptions(commitOnBlur: true)

    /// At once, and one at a time per element (see ``oneAtATime``).
    public static let oneAtATime = EventOptions(oneAtATime: true)

    /// At once, kept by the page and replayed after a rebuild (see ``recoverable``).
    public static let recoverable = EventOptions(recoverable: true)

    /// At once, and sent again after a rebuild if it was never acknowledged (see
    /// ``safeToRepeat``).
    public static let safeToRepeat = EventOptions(safeToRepeat: true)

    /// Sent only for `keys` (see ``keys``).
    public static func keys(_ keys: [String]) -> EventOptions { EventOptions(keys: keys) }

    /// The options as sent in a mount message (`{"debounce": 300}`), or nil for none.
    public var json: JSON? {
        var members = JSONObject()
        if let debounce { members["debounce"] = .int(Self.milliseconds(debounce)) }
        if let throttle { members["throttle"] = .int(Self.milliseconds(throttle)) }
        if commitOnBlur { members["commit"] = "blur" }
        if oneAtATime { members["single"] = true }
        if recoverable { members["keep"] = true }
        if safeToRepeat { members["repeat"] = true }
        if !commands.isEmpty { members["run"] = .array(commands.map(\.json)) }
        if pageOnly { members["local"] = true }
        if !keys.isEmpty { members["keys"] = .array(keys.map { .string($0) }) }
        if !sets.isEmpty { members["set"] = .object(JSONObject(uniqueKeysWithValues: sets.sorted { $0.key < $1.key })) }
        return members.isEmpty ? nil : .object(members)
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
