import Dispatch
import Footlight
import FootlightJSON
import Testing

/// Drives scenes in process, with no socket: send events, move a test clock, and
/// assert every change of every stage's document and every context command.
///
/// Exhaustive by default: a change or command not asserted before the next step, or
/// by ``finish(sourceLocation:)``, fails the test with the difference.
///
/// ```swift
/// let tester = SceneTester(CounterScene())
/// tester.send("increment", to: "counter")
/// tester.expect("counter", ["count": "Count: 1"])
/// tester.finish()
/// ```
public final class SceneTester: @unchecked Sendable {
    // @unchecked: every member is used on `queue` (through `run`), except the
    // immutable ones; the test thread waits for each step with `queue.sync`.

    /// What a scene asked its context to do.
    public enum Command: Equatable, CustomStringConvertible {
        case mount(template: String, placement: Placement, url: String?)
        case unmount(template: String, placement: Placement)
        case open(url: String)

        public var description: String {
            switch self {
            case .mount(let template, let placement, let url):
                "mount \(template) (\(placement.rawValue)\(url.map { ", \($0)" } ?? ""))"
            case .unmount(let template, let placement): "unmount \(template) (\(placement.rawValue))"
            case .open(let url): "open \(url)"
            }
        }
    }

    /// The test clock the scenes' environment uses.
    public let clock = TestClock()
    private let queue = DispatchQueue(label: "footlight.scene-tester")
    private var stack = StageStack<JSON>()  // extra: the document as last asserted
    private var commands: [Command] = []
    private lazy var context = Context(
        environment: SessionEnvironment(queue: queue, clock: clock), presenter: self)

    /// Starts an app entry (as a new session would, with the page path `path`).
    /// The stages the entry shows are the starting point: their mounts and first
    /// documents need no assertion.
    public init(_ entry: @escaping AppEntry, path: String = "/") {
        run {
            entry(context, path)
            commands.removeAll()
        }
    }

    /// Starts with `scene` shown at the root.
    public convenience init(_ scene: some Scene) {
        // Used only on the tester's queue. An existential, so no generic metatype is captured.
        nonisolated(unsafe) let scene: any Scene = scene
        self.init({ context, _ in context.show(scene) })
    }

    // MARK: Reading

    /// The ids of the stages shown, in page order.
    public var stageIDs: [String] { run { stack.entries.map(\.id) } }

    /// A stage's current document.
    public func document(_ stageID: String) -> JSON? {
        run { stack.index(of: stageID).map { stack[$0].stage.document } }
    }

    // MARK: Steps

    /// Sends an event from the page. Unasserted changes of the previous step fail the
    /// test first. Returns the error a refused event gets, if any.
    @discardableResult
    public func send(
        _ event: String, to stageID: String, value: JSON? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> StageEventError? {
        checkNothingUnasserted(before: "sending \"\(event)\"", sourceLocation)
        let failure: StageEventError? = run { () -> StageEventError? in
            guard let index = stack.index(of: stageID) else {
                Issue.record(
                    "no stage \"\(stageID)\" is shown (shown: \(stack.entries.map(\.id)))",
                    sourceLocation: sourceLocation)
                return nil
            }
            let outcome = Result { () throws(StageEventError) in
                try stack[index].stage.handle(event: event, value: value)
            }
            if case .failure(let error) = outcome { return error }
            return nil
        }
        settle()
        return failure
    }

    /// Moves the test clock forward, running what comes due, in order.
    public func advance(by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation) {
        checkNothingUnasserted(before: "advancing the clock", sourceLocation)
        let deadline = clock.now + duration
        while let action = clock.takeNext(dueBy: deadline) {
            run { action() }
            settle()
        }
    }

    // MARK: Assertions

    /// Asserts that exactly these slots of `stageID` changed (to these values) since
    /// they were last asserted; other changed slots stay unasserted and fail later.
    public func expect(_ stageID: String, _ slots: JSONObject, sourceLocation: SourceLocation = #_sourceLocation) {
        run {
            guard let index = stack.index(of: stageID) else {
                Issue.record("no stage \"\(stageID)\" is shown", sourceLocation: sourceLocation)
                return
            }
            let current = stack[index].stage.document.objectValue ?? [:]
            var asserted = stack[index].extra.objectValue ?? [:]
            for (slot, expected) in slots {
                let actual = current[slot] ?? .null
                if actual != expected {
                    Issue.record(
                        "\(stageID)/\(slot): expected \(Self.text(expected)), got \(Self.text(actual))",
                        sourceLocation: sourceLocation)
                }
                if asserted[slot] == actual {
                    Issue.record(
                        "\(stageID)/\(slot) did not change (it is \(Self.text(actual)))", sourceLocation: sourceLocation
                    )
                }
                asserted[slot] = current[slot]
            }
            stack[index].extra = .object(asserted)
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
    }

    // MARK: Internals

    private func run<T>(_ body: () throws -> T) rethrows -> T {
        try queue.sync(execute: body)
    }

    /// Lets work queued on the session's queue run (a bounded number of rounds): what
    /// a step queued, or what a shared service delivered from another thread (call
    /// it after changing such a service, before asserting).
    public func settle() {
        for _ in 0..<100 {
            let before = run { stack.entries.map(\.stage.document) }
            run {}
            if run({ stack.entries.map(\.stage.document) }) == before { return }
        }
    }

    private func checkNothingUnasserted(before step: String, _ sourceLocation: SourceLocation) {
        let problems: [String] = run {
            var problems: [String] = []
            if !commands.isEmpty { problems.append("unasserted context commands: \(commands.map(\.description))") }
            for index in stack.indices {
                let entry = stack[index]
                let current = entry.stage.document.objectValue ?? [:]
                let asserted = entry.extra.objectValue ?? [:]
                for slot in Set(current.keys).union(asserted.keys).sorted() where current[slot] != asserted[slot] {
                    problems.append(
                        "unasserted change of \(entry.id)/\(slot): \(Self.text(asserted[slot] ?? .null)) → \(Self.text(current[slot] ?? .null))"
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
                for index in stack.indices { stack[index].extra = stack[index].stage.document }
            }
        }
    }

    private static func text(_ value: JSON) -> String {
        (try? value.serialized()) ?? "\(value)"
    }
}

extension SceneTester: Presenter {
    package func present(_ stage: Stage, placement: Placement, url: String?) {
        // A new stage's first document is part of its mount, not a change to assert.
        _ = stack.add(stage, placement: placement, url: url, extra: stage.document)
        commands.append(.mount(template: stage.name, placement: placement, url: url))
    }

    package func removeTop(_ placement: Placement) {
        guard let entry = stack.removeTop(placement) else { return }
        commands.append(.unmount(template: entry.stage.name, placement: placement))
    }

    package func removeAll() {
        for placement in [Placement.modal, .push, .root] {
            while stack.entries.contains(where: { $0.placement == placement }) { removeTop(placement) }
        }
    }

    package func open(url: String) {
        commands.append(.open(url: url))
    }
}
