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
/// by ``finish(allowingTimers:sourceLocation:)``, fails the test with a structural diff
/// of what was last asserted against what the page holds. Set ``exhaustivity`` to
/// ``Exhaustivity/off(showSkippedAssertions:)`` to assert only part.
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
    let queue = DispatchQueue(label: "footlight.scene-tester")
    /// The session's executor: `queue`, counting the work not yet run, so `settle` knows
    /// when the session is quiet.
    let executor: SettlingExecutor
    private let entry: AppEntry
    package var state: SessionState
    /// What a page holding this session would show.
    var mirror = ClientMirror()
    /// Messages the page received, for `settle(waitingForChange:)`.
    var received = 0
    /// Per stage, the document as last asserted.
    var asserted: [String: JSON] = [:]
    var commands: [Command] = []
    /// Per stage, the patch operations received since the last ``expectPatch(_:_:sourceLocation:)``.
    var patches: [String: [JSON]] = [:]
    var nextEvent: Int64 = 1
    /// The error the last delivered event got from its stage.
    var lastEventError: StageEventError?
    private var startOverReason: String?
    /// What ``exhaustivity`` holds (used on `queue`).
    var exhaustivityMode = Exhaustivity.on
    /// What ``skipped`` holds (used on `queue`).
    var skippedAssertions: [String] = []
    /// What ``settleTimeout`` holds (used on `queue`).
    var settleLimit = Duration.seconds(5)
    /// The page's request the session's environment holds.
    private let request: SessionRequest
    /// The uploads of the stages' upload bindings, through the server's own code (made
    /// with the first, in a temporary folder of their own).
    var uploadRegistry: UploadRegistry?
    let uploadDeliveries = UploadDeliveries()
    private lazy var context = Context(
        environment: SessionEnvironment(executor: executor, clock: clock, request: request), presenter: self)
    private static let connection: ConnectionID = 1
    /// The session's name in the upload registry.
    static let session = "scene-tester"

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
        executor = SettlingExecutor(queue)
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

    // MARK: Driving the state machine

    /// Runs `body` on the session's queue, after the work posted before it, and waits.
    func run<T>(_ body: () throws -> T) rethrows -> T {
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
    func flush() -> Bool {
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
        received += 1
        let stage = json[.stage]?.stringValue
        switch json[.type]?.stringValue.flatMap(Wire.Server.init(rawValue:)) {
        case .mount: if let stage { asserted[stage] = json[.document] }
        case .unmount: if let stage { asserted[stage] = nil }
        case .patch: if let stage, case .array(let ops)? = json[.operations] { patches[stage, default: []] += ops }
        default: break
        }
        // The mirror records the mounts, unmounts, opens and runs, as a page would see them.
        let known = mirror.commands.count
        _ = mirror.apply(json)
        commands += mirror.commands[known...]
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
