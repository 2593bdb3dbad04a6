import FootlightJSON
import Testing

/// A session a scene test talks to: in process (``SceneTester/session``) or over a
/// real socket against a live server (``LiveScene``). Write a test body once against
/// this protocol and run it both ways, so the in-process tests and the socket cannot
/// disagree.
///
/// ```swift
/// func counts(_ scene: some SceneSession) async throws {
///     try await scene.send("increment", to: "counter")
///     try await scene.expect("counter", ["count": "Count: 1"])
/// }
/// @Test func inProcess() async throws { try await counts(SceneTester(CounterScene()).session) }
/// @Test func overASocket() async throws {
///     let live = try await LiveScene.start { context, _ in context.show(CounterScene()) }
///     defer { live.stop() }
///     try await counts(live)
/// }
/// ```
public protocol SceneSession: Sendable {
    /// Sends an event from the page to a stage and waits until the session consumed it.
    func send(_ event: String, to stage: String, value: JSON?, sourceLocation: SourceLocation) async throws
    /// Asserts these slots of `stage` (as the page holds them) have these values.
    func expect(_ stage: String, _ slots: JSONObject, sourceLocation: SourceLocation) async throws
    /// Asserts the mounts, unmounts and opens the page got since the last check.
    func expectCommands(_ commands: [SceneCommand], sourceLocation: SourceLocation) async throws
}

extension SceneSession {
    public func send(
        _ event: String, to stage: String, value: JSON? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await send(event, to: stage, value: value, sourceLocation: sourceLocation)
    }

    public func expect(
        _ stage: String, _ slots: JSONObject, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await expect(stage, slots, sourceLocation: sourceLocation)
    }

    public func expectCommands(
        _ commands: [SceneCommand], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await expectCommands(commands, sourceLocation: sourceLocation)
    }
}

extension SceneTester {
    /// This tester as a ``SceneSession``, for test bodies shared with ``LiveScene``.
    public var session: some SceneSession { InProcessScene(tester: self) }
}

/// A ``SceneTester`` seen as a ``SceneSession`` (its exhaustive checks stay on).
struct InProcessScene: SceneSession {
    let tester: SceneTester

    func send(_ event: String, to stage: String, value: JSON?, sourceLocation: SourceLocation) async throws {
        tester.send(event, to: stage, value: value, sourceLocation: sourceLocation)
    }

    func expect(_ stage: String, _ slots: JSONObject, sourceLocation: SourceLocation) async throws {
        tester.expect(stage, slots, sourceLocation: sourceLocation)
    }

    func expectCommands(_ commands: [SceneCommand], sourceLocation: SourceLocation) async throws {
        tester.expectCommands(commands, sourceLocation: sourceLocation)
    }
}
