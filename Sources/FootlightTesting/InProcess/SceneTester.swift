import Dispatch
import Footlight
import FootlightJSON
import FootlightServer
import Logging
import Testing

/// Drives scenes in process, with no socket, through the same session state machine
/// as the live server: send events, move a test clock, and assert every change of
/// every stage's document and every context command, as the page would receive them.
///
/// Exhaustive by default: a change or command not asserted before the next step, or
/// by ``finish(allowingTimers:sourceLocation:)``, fails the test with the difference.
///
/// ```swift
/// let tester = SceneTester(CounterScene())
/// tester.send("increment", to: "counter")
/// tester.expect("counter", ["count": "Count: 1"])
/// tester.expectPatch("counter", [["op": "replace", "path": "/count", "value": "Count: 1"]])
/// tester.finish()
/// ```
public final class SceneTester: @unchecked Sendable {
    // @unchecked: every mutable member is used on `queue` (through `run`); the test
    // thread waits for each step with `queue.sync`.

    /// What a scene asked its context to do, as the page was told.
    public typealias Command = SceneCommand

    /// The test clock the scenes' environment uses.
    public let clock = TestClock()
    private let queue = DispatchQueue(label: "footlight.scene-tester")
    private let entry: AppEntry
    package var state: SessionState
    /// What a page holding this session would show.
    private var mirror = ClientMirror()
    /// Per stage, the document as last asserted.
    private var asserted: [String: JSON] = [:]
    private var commands: [Command] = []
    /// Per stage, the patch operations received since the last ``expectPatch(_:_:sourceLocation:)``.
    private var patches: [String: [JSON]] = [:]
    private var nextEvent: Int64 = 1
    /// The error the last delivered event got from its stage.
    private var lastEventError: StageEventError?
    private var startOverReason: String?
    /// The page's request the session's environment holds.
    private let request: SessionRequest
    /// The uploads of the stages' upload bindings, through the server's own code (made
    /// with the first, in a temporary folder of their own).
    private var uploadRegistry: UploadRegistry?
    private let uploadDeliveries = UploadDeliveries()
    private lazy var context = Context(
        environment: SessionEnvironment(executor: queue, clock: clock, request: request), presenter: self)
    private static let connection: ConnectionID = 1
    /// The session's name in the upload registry.
    private static let session = "scene-tester"

    /// Starts an app entry (as a new session would, with the page path `path`), or,
    /// given `restoring`, rebuilds a session as a page that showed those stages asks
    /// (``rebuilt`` and ``errors`` then tell what came of it). The stages the entry
    /// shows are the starting point: their mounts and first documents need no assertion.
    /// `request` is what the app reads as the page's request (``SessionEnvironment/request``):
    /// headers such as `accept-language`, cookies, the visitor; its path is `path`.
    public init(
        _ entry: @escaping AppEntry, path: String = "/", restoring: ClientMessage.Restore? = nil,
        request: SessionRequest = SessionRequest()
    ) {
        self.entry = entry
        var request = request
        request.path = path
        self.request = request
        var limits = SessionLimits()
        // A test sends events as fast as it likes.
        limits.eventsPerSecond = 1e9
        limits.eventBurst = 1e9
        state = SessionState(
            token: "scene-tester", configuration: .init(limits: limits, sendsErrorDetails: true), now: .now)
        run {
            perform(state.attach(Self.connection, resumeAfter: nil, path: path, restore: restoring))
            flush()
            commands.removeAll()
            patches.removeAll()
            asserted = mirror.documents
        }
    }

    deinit {
        uploadRegistry?.close()
    }

    /// Starts with `scene` shown at the root.
    public convenience init(_ scene: some Scene) {
        // Used only on the tester's queue. An existential, so no generic metatype is captured.
        nonisolated(unsafe) let scene: any Scene = scene
        self.init({ context, _ in context.show(scene) })
    }

    // MARK: Reading

    /// The ids of the stages shown, in page order; components are not among them
    /// (``component(_:row:in:)``, ``componentIDs``).
    public var stageIDs: [String] { run { mirror.stages.map(\.id) } }

    /// The ids of the components shown, sorted.
    public var componentIDs: [String] { run { mirror.components.keys.sorted() } }

    /// The instance id of the component the stage `stageID` placed at `host` (for a list
    /// of components, the one of row `row`), as the page was told; nil when none is shown.
    public func component(_ host: String, row: String? = nil, in stageID: String) -> String? {
        run {
            mirror.components.first {
                $0.value.parent == stageID && $0.value.host == ComponentHost(name: host, row: row)
            }?
            .key
        }
    }

    /// A stage's current document, as the page holds it.
    public func document(_ stageID: String) -> JSON? {
        run { mirror.documents[stageID] }
    }

    /// For a tester started `restoring` a page, each restored stage's new id (nil: not
    /// rebuilt), as `joined` told the page.
    public var rebuilt: [String?]? { run { mirror.rebuilt } }

    /// Errors the page received (refused events, bad slot values), oldest first.
    public var errors: [ClientMirror.ReceivedError] { run { mirror.errors } }

    /// Why the app asked the session to start over (``Context/startOver(reason:)``),
    /// once it has; the session has ended then.
    public var startedOver: String? { run { startOverReason } }

    // MARK: Steps

    /// Sends an event from the page. Unasserted changes of the previous step fail the
    /// test first. Returns the error a refused event gets, if any.
    @discardableResult
    public func send(
        _ event: String, to stageID: String, value: JSON? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> StageEventError? {
        checkNothingUnasserted(before: "sending \"\(event)\"", sourceLocation)
        let failure: StageEventError? = run { () -> StageEventError? in
            guard mirror.template(of: stageID) != nil else {
                Issue.record(
                    "no stage \"\(stageID)\" is shown (shown: \(mirror.stages.map(\.id) + mirror.components.keys.sorted()))",
                    sourceLocation: sourceLocation)
                return nil
            }
            lastEventError = nil
            let message = ClientMessage.Event(number: nextEvent, stage: stageID, name: event, value: value)
            nextEvent += 1
            perform(state.receive(message, now: .now))
            flush()
            return lastEventError
        }
        settle()
        return failure
    }

    /// Moves the test clock forward, running what comes due, in order.
    public func advance(by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation) {
        checkNothingUnasserted(before: "advancing the clock", sourceLocation)
        let deadline = clock.now + duration
        while let action = clock.takeNext(dueBy: deadline) {
            run {
                action()
                flush()
            }
            settle()
        }
    }

    /// Lets work queued on the session's executor run (a bounded number of rounds):
    /// what a step queued, or what a shared service delivered from another thread
    /// (call it after changing such a service, before asserting).
    public func settle() {
        for _ in 0..<100 {
            let sent = run { flush() }
            if !sent { return }
        }
    }

    /// Chooses a file for the file input bound to upload `event` (``Stage/upload(_:limits:send:)``)
    /// in `stageID` and sends it as the page's upload hook does, through the server's own
    /// upload code with no socket: the event describing the file (`name`, `type`, the
    /// size of `bytes`); then, when the session answers with an address, the bytes,
    /// `chunk` at a time, letting the session's work run after each (progress events);
    /// then the file's end, checked as the server checks it (the declared type against
    /// the bytes). The address (the session's message to the page's upload hook) is taken
    /// here and needs no assertion.
    ///
    /// Returns the HTTP status the bytes got (204: the file was taken), or nil when the
    /// session gave no address (a refusal, which its binding got as
    /// ``UploadEvent/failed(_:)``).
    @discardableResult
    public func upload(
        _ event: String, to stageID: String, name: String, type: String, bytes: [UInt8], chunk: Int = 65_536,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int? {
        let file: JSON = ["name": .string(name), "size": .int(Int64(bytes.count)), "type": .string(type)]
        guard send(event, to: stageID, value: [file], sourceLocation: sourceLocation) == nil,
            let (url, offset) = run({ takeUploadAddress(for: event) }), offset <= bytes.count,
            let registry = run({ uploadRegistry })
        else { return nil }
        let status = registry.put(url, body: Array(bytes[offset...]), chunk: chunk) { settle() }
        settle()
        return status
    }

    /// The address and offset of the newest upload-hook message for the input bound to
    /// `event`, taken out of the unasserted commands (the page's hook acts on it).
    private func takeUploadAddress(for event: String) -> (url: String, offset: Int)? {
        for (index, command) in commands.enumerated().reversed() {
            guard case .run(let template, var clientCommands) = command else { continue }
            for (position, clientCommand) in clientCommands.enumerated().reversed() {
                guard case .push(let message, ClientCommand.uploadHook) = clientCommand,
                    message["at"]?.stringValue == event, let url = message["url"]?.stringValue,
                    case .int(let offset)? = message["from"]
                else { continue }
                clientCommands.remove(at: position)
                if clientCommands.isEmpty {
                    commands.remove(at: index)
                } else {
                    commands[index] = .run(template: template, clientCommands)
                }
                return (url, Int(offset))
            }
        }
        return nil
    }

    // MARK: Assertions

    /// Asserts that exactly these slots of `stageID` changed (to these values) since
    /// they were last asserted; other changed slots stay unasserted and fail later.
    public func expect(_ stageID: String, _ slots: JSONObject, sourceLocation: SourceLocation = #_sourceLocation) {
        run {
            guard let document = mirror.documents[stageID] else {
                Issue.record("no stage \"\(stageID)\" is shown", sourceLocation: sourceLocation)
                return
            }
            let current = document.objectValue ?? [:]
            var known = asserted[stageID]?.objectValue ?? [:]
            for (slot, expected) in slots {
                let actual = current[slot] ?? .null
                if actual != expected {
                    Issue.record(
                        "\(stageID)/\(slot): expected \(Self.text(expected)), got \(Self.text(actual))",
                        sourceLocation: sourceLocation)
                }
                if known[slot] == actual {
                    Issue.record(
                        "\(stageID)/\(slot) did not change (it is \(Self.text(actual)))", sourceLocation: sourceLocation
                    )
                }
                known[slot] = current[slot]
            }
            asserted[stageID] = .object(known)
        }
    }

    /// Asserts the RFC 6902 operations the page received for `stageID` since the last
    /// call (all its patches of those steps, in order).
    public func expectPatch(_ stageID: String, _ expected: [JSON], sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = run { patches.removeValue(forKey: stageID) ?? [] }
        if actual != expected {
            Issue.record(
                "patch of \(stageID): expected \(Self.text(.array(expected))), got \(Self.text(.array(actual)))",
                sourceLocation: sourceLocation)
        }
    }

    /// Asserts the context commands issued since the last check, in order.
    public func expectCommands(_ expected: [Command], sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = run {
            defer { commands.removeAll() }
            return commands
        }
        if actual != expected {
            Issue.record(
                "context commands: expected \(expected.map(\.description)), got \(actual.map(\.description))",
                sourceLocation: sourceLocation)
        }
    }

    /// Fails for anything not asserted yet, and for timers still scheduled unless
    /// `allowingTimers` (for scenes with a ticker that reschedules itself for as long
    /// as the scene is shown).
    public func finish(allowingTimers: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        checkNothingUnasserted(before: "finishing", sourceLocation)
        if !allowingTimers, clock.pendingCount > 0 {
            Issue.record(
                "\(clock.pendingCount) scheduled action(s) never ran; advance the clock", sourceLocation: sourceLocation
            )
        }
        let violations = run { mirror.violations }
        for violation in violations {
            Issue.record("protocol violation: \(violation)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Driving the state machine

    private func run<T>(_ body: () throws -> T) rethrows -> T {
        try queue.sync(execute: body)
    }

    package func startApp(path: String, modals: [String]) {
        context.start(entry, path: path, restoringModals: modals)
    }

    /// Carries out the session's I/O as the live driver does, with the page mirror as
    /// the connection.
    package func carryOut(_ action: ProtocolAction) {
        switch action {
        case .send(let messages):
            for message in messages { receive(message) }
        case .close(_, let code, let reason):
            Issue.record("the session closed its connection (\(code)): \(reason)")
        case .scheduleFlush, .awaitDrain, .log, .ended:
            break
        }
    }

    package func delivered(_ event: ClientMessage.Event, error: StageEventError?) {
        lastEventError = error
    }

    /// Ends the turn: flushes what changed to the mirror. Returns whether anything was sent.
    @discardableResult
    private func flush() -> Bool {
        guard state.flushScheduled else { return false }
        let before = mirror.lastSeq
        for action in state.flush(unsentBytes: 0) { carryOut(action) }
        if mirror.lastSeq > before { perform(state.acknowledge(seq: mirror.lastSeq)) }
        return true
    }

    /// What the page does with one message: apply it, and note commands and patches.
    private func receive(_ message: WireMessage) {
        guard let json = try? message.bytes.withUnsafeBytes({ try JSON.parse($0) }) else {
            Issue.record("the session sent a message that is not JSON")
            return
        }
        let stage = json["stage"]?.stringValue
        switch json["t"]?.stringValue {
        case "mount": if let stage { asserted[stage] = json["doc"] }
        case "unmount": if let stage { asserted[stage] = nil }
        case "patch": if let stage, case .array(let ops)? = json["ops"] { patches[stage, default: []] += ops }
        default: break
        }
        // The mirror records the mounts, unmounts, opens and runs, as a page would see them.
        let known = mirror.commands.count
        _ = mirror.apply(json)
        commands += mirror.commands[known...]
    }

    private func checkNothingUnasserted(before step: String, _ sourceLocation: SourceLocation) {
        let problems: [String] = run {
            var problems: [String] = []
            if !commands.isEmpty { problems.append("unasserted context commands: \(commands.map(\.description))") }
            for (id, document) in mirror.documents.sorted(by: { $0.key < $1.key }) {
                let current = document.objectValue ?? [:]
                let known = asserted[id]?.objectValue ?? [:]
                for slot in Set(current.keys).union(known.keys).sorted() where current[slot] != known[slot] {
                    problems.append(
                        "unasserted change of \(id)/\(slot): \(Self.text(known[slot] ?? .null)) → \(Self.text(current[slot] ?? .null))"
                    )
                }
            }
            return problems
        }
        for problem in problems { Issue.record("before \(step): \(problem)", sourceLocation: sourceLocation) }
        if !problems.isEmpty {
            // Report each problem once.
            run {
                commands.removeAll()
                asserted = mirror.documents
            }
        }
    }

    private static func text(_ value: JSON) -> String {
        (try? value.serialized()) ?? "\(value)"
    }
}

extension SceneTester: UploadBroker {
    package var uploadBroker: (any UploadBroker)? { self }

    package func begin(_ file: UploadDescription, limits: UploadLimits, deliver: @escaping (UploadEvent) -> Void)
        throws(UploadError) -> UploadTicket
    {
        if uploadRegistry == nil {
            do {
                uploadRegistry = try UploadRegistry(
                    configuration: UploadConfiguration(), key: nil, logger: Logger(label: "footlight.scene-tester"))
            } catch {
                throw UploadError(.storage, file: file.name, "no folder for uploads: \(error)")
            }
        }
        let ticket = try uploadRegistry!.begin(session: Self.session, file: file, limits: limits) {
            [weak self] id, event in
            self?.queue.async { [weak self] in
                self?.uploadDeliveries.deliver(event, of: id, registry: self?.uploadRegistry)
            }
        }
        uploadDeliveries.add(ticket.id, deliver)
        return ticket
    }

    package func resume(_ id: String) throws(UploadError) -> UploadTicket {
        guard let uploadRegistry else { throw UploadError(.abandoned, file: nil, "no upload \(id) was started") }
        return try uploadRegistry.resume(session: Self.session, id: id)
    }
}

extension SceneTester: SessionHost {
    package func startOver(reason: String) {
        // After the current work, as a server does; the page would get `bye` and start over.
        queue.async { [self] in
            startOverReason = reason
            _ = state.end(reason: reason, closeCode: 4002)
        }
    }
}
