import FootlightJSON
import OrderedCollections

/// What the user sees, as the server knows it: a named template in the page and
/// its bindings.
///
/// Outputs of a Director feed named *slots* of the stage's view document; named
/// browser events feed Director inputs. A stage lives on its session's executor: bind
/// it and send it events from there only (the session does this for you).
///
/// ```swift
/// let increment = PassthroughSubject<Void, Never>()
/// let director = CounterDirector(increment: increment.eraseToAnyPublisher())
/// let stage = Stage(name: "counter")
/// stage.bind(director.countText, to: "count")
/// stage.on("increment", send: increment)
/// ```
public final class Stage {
    /// The template's name in the page.
    public let name: String
    /// The view document: each bound slot's latest value, keyed collections included.
    public var document: JSON {
        guard !keyed.isEmpty, case .object(var members) = valueDocument else { return valueDocument }
        for (slot, rows) in keyed { members[slot] = rows.json }
        return .object(members)
    }
    /// The slots bound to values, which the session diffs; keyed collections are not
    /// in it (their changes come as operations, ``takeRowOperations()``).
    package internal(set) var valueDocument: JSON = .object([:])
    /// The slots bound to ``RowChange``s, in binding order.
    var keyed: OrderedDictionary<String, KeyedRows> = [:]
    /// The session showing the stage, told what its bindings do; set when it is shown,
    /// cleared when it is cancelled. Commands run before it is set wait for it
    /// (``takeCommands()``).
    package var host: (any StageHost)? {
        didSet { if let host, !waitingCommands.isEmpty { host.stageRuns(takeCommands()) } }
    }
    /// Commands run before the stage was shown (a publisher that emits at once).
    private var waitingCommands: [ClientCommand] = []
    /// The components placed in the stage's template, by host (``place(_:at:)``,
    /// ``bind(_:to:component:make:)``); ``placedComponents`` has them in order. (Not an
    /// ordered dictionary: removing from one shifts the rest, so clearing a list of
    /// components took time quadratic in its length.)
    package internal(set) var components: [ComponentHost: Stage] = [:]
    /// This stage's turn among its parent's components, when it is one.
    var placement = 0
    /// How many components were ever placed in the stage (the next one's ``placement``).
    var placements = 0
    /// While a list of components applies its changes: the components removed so far,
    /// not yet reported (``StageHost/stageRemoved(_:)``): clearing a list of n components
    /// costs the session one pass, not n.
    var removedComponents: [Stage]?

    /// Event handlers; each returns the error for a value it cannot take, or for an
    /// action that failed.
    var handlers: [String: (JSON?) -> StageEventError?] = [:]
    /// Pacing the page applies to each event, by name.
    public internal(set) var eventOptions: [String: EventOptions] = [:]
    /// The address the stage's Director last gave it (``bindAddress(_:)``), if any.
    package internal(set) var address: Address?
    var subscriptions: [AnyCancellable] = []
    /// The names the stage was bound with, whether or not a value came yet
    /// (``bindings``): its slots, its lists of components' hosts, the hooks it pushes to.
    var declared = DeclaredNames()

    /// A stage for the template named `name`, with no bindings yet.
    public init(name: String) {
        self.name = name
    }

    /// Feeds the slot `slot` of the view document from `output`.
    ///
    /// A publisher that emits on subscription (a `CurrentValueSubject`, `Just`, a
    /// share-replay) fills the slot at once, so the first mount shows it.
    public func bind<Output: Publisher>(_ output: Output, to slot: String)
    where Output.Output: ViewValue, Output.Failure == Never {
        declared.add(slot: slot)
        subscriptions.append(
            output.sink { [weak self] value in
                self?.set(slot, to: value.viewJSON)
            })
    }

    /// Sends each `event` from the page into `input`, ignoring any value it carries.
    public func on<Input: Subject>(_ event: String, send input: Input, options: EventOptions = .immediate)
    where Input.Output == Void {
        eventOptions[event] = options
        handlers[event] = { _ in
            input.send(())
            return nil
        }
    }

    /// Sends the value of each `event` into `input`; a value of the wrong type is
    /// refused with an error naming the event, and the input is not touched.
    public func on<Input: Subject>(_ event: String, send input: Input, options: EventOptions = .immediate)
    where Input.Output: EventValue {
        eventOptions[event] = options
        handlers[event] = { [name] value in
            let decoded = Result { () throws(EventValueError) -> Input.Output in
                try Input.Output(eventJSON: value ?? .null)
            }
            switch decoded {
            case .success(let decoded):
                input.send(decoded)
                return nil
            case .failure(let error):
                return .badValue(event, stage: name, error)
            }
        }
    }

    /// Calls `action` with the value of each `event`, for a Director input that can
    /// fail (a method that throws). A value of the wrong type is refused as with
    /// `on(_:send:options:)`, and `action` is not called. An error `action`
    /// throws is a failure of the Director, not of the event: the session ends and its
    /// page is asked to reload, while every other session goes on.
    public func on<Value: EventValue>(
        _ event: String, options: EventOptions = .immediate, perform action: @escaping (Value) throws -> Void
    ) {
        eventOptions[event] = options
        handlers[event] = { [name] value in
            let decoded: Value
            do throws(EventValueError) {
                decoded = try Value(eventJSON: value ?? .null)
            } catch {
                return .badValue(event, stage: name, error)
            }
            do {
                try action(decoded)
                return nil
            } catch {
                return .directorFailed(event, stage: name, error)
            }
        }
    }

    /// Sends each batch of `commands` to the page, which carries it out at once: focus
    /// the field a step needs, title the page after what it shows. A publisher that
    /// emits on subscription runs its commands when the stage is first shown.
    public func run<Commands: Publisher>(_ commands: Commands)
    where Commands.Output == [ClientCommand], Commands.Failure == Never {
        subscriptions.append(
            commands.sink { [weak self] commands in
                guard let self, !commands.isEmpty else { return }
                if let host { host.stageRuns(commands) } else { waitingCommands += commands }
            })
    }

    /// Hands each value of `messages` to the stage's elements that name `hook` (a
    /// JavaScript hook registered on the page: its `received` callback): what a chart
    /// should highlight, a map's new centre. A value JSON cannot carry (NaN, nesting too
    /// deep) is refused as a binding error, and nothing is sent for it.
    public func push<Messages: Publisher>(_ messages: Messages, to hook: String)
    where Messages.Output: ViewValue, Messages.Failure == Never {
        declared.add(hook: hook)
        run(
            messages.compactMap { [weak self, name] message -> [ClientCommand]? in
                let value = message.viewJSON
                // A pushed value sits 4 levels deep in a message (run → do → command → value).
                guard value.isRepresentable(nestedAt: 4) else {
                    self?.host?.stageFailed(
                        "a message for hook \"\(hook)\" of stage \"\(name)\" is a value JSON cannot hold (NaN, infinity or nesting too deep); it was not sent"
                    )
                    return nil
                }
                return [.push(value, toHook: hook)]
            })
    }

    /// Declares `event` as the page's alone: when it fires, the page runs `commands`
    /// (open a menu, show details) and sends nothing to the server.
    public func on(_ event: String, runs commands: [ClientCommand]) {
        eventOptions[event] = EventOptions(commands: commands, pageOnly: true)
    }

    /// Keeps `subscription` alive as long as the stage's bindings (a Director's
    /// internal wiring that no slot observes).
    public func keep(_ subscription: AnyCancellable) {
        subscriptions.append(subscription)
    }

    /// The names of the events this stage accepts.
    public var eventNames: [String] { handlers.keys.sorted() }

    /// Delivers a browser event. Throws ``StageEventError`` for an unknown event, a
    /// value of the wrong type, or an action that failed. The slots the event declares
    /// it sets (``EventOptions/sets``) are set first, as the page set them when it sent
    /// the event; what the Director then binds to them follows.
    public func handle(event: String, value: JSON?) throws(StageEventError) {
        guard let handler = handlers[event] else {
            throw StageEventError.unknownEvent(event, stage: name, accepted: eventNames)
        }
        for (slot, value) in eventOptions[event]?.sets ?? [:] { set(slot, to: value) }
        if let error = handler(value) {
            throw error
        }
    }

    /// The pacing of every event that has some, as sent with the mount.
    public var eventOptionsJSON: JSON {
        .object(
            JSONObject(
                uniqueKeysWithValues: eventOptions.sorted { $0.key < $1.key }.compactMap { name, options in
                    options.json.map { (name, $0) }
                }))
    }

    /// Takes the commands run before the session was set as the stage's ``host``.
    package func takeCommands() -> [ClientCommand] {
        defer { waitingCommands.removeAll() }
        return waitingCommands
    }

    /// Ends every binding, its components' too; the stage stops changing.
    public func cancel() {
        subscriptions.removeAll()
        for component in components.values { component.cancel() }
        components.removeAll()
        handlers.removeAll()
        host = nil
        waitingCommands.removeAll()
    }

    private func set(_ slot: String, to value: JSON) {
        // A slot bound to row changes keeps them; a value for it is ignored.
        guard keyed[slot] == nil, case .object(var members) = valueDocument else { return }
        // The same value again changes nothing. Two arrays or objects built apart are
        // not compared here: the flush's diff walks them anyway, and finds nothing to
        // send when they are alike (a row changed by a bid would be walked twice).
        if let old = members[slot] {
            if old.sharesStorage(with: value) || (!value.isContainer && old.isIdentical(to: value)) { return }
        }
        // A slot sits at most 4 levels deep in a message (patch → ops → op → value).
        guard value.isRepresentable(nestedAt: 4) else {
            // The slot keeps its last good value; the session logs the problem and tells
            // the page, so it never shows a silent blank.
            host?.stageFailed(
                "slot \"\(slot)\" of stage \"\(name)\" got a value JSON cannot hold (NaN, infinity or nesting too deep); it keeps its previous value"
            )
            return
        }
        valueDocument = .null
        members[slot] = value
        valueDocument = .object(members)
        host?.stageChanged()
    }
}
