import Footlight
import FootlightServer
import FootlightTesting
import Foundation
import Logging
import ServiceLifecycle
import Testing

/// `Server` as a swift-service-lifecycle `Service`: `run()` returns after a graceful
/// shutdown or the cancellation of its task, once every page was told and every socket
/// closed. The drain timeout is long, so a run that returns well within it was woken by
/// the last socket closing, not by the timeout. (Both are generous: in a plain
/// `swift test` the 1,000-client load suites share the 2 cores, and a shutdown took 15 s
/// there, where it takes well under a second alone.)
@Suite(.timeLimit(.minutes(5)))
struct ServerServiceTests {
    static let drainTimeout = Duration.seconds(120)
    static let prompt = Duration.seconds(60)
    static let quiet = Logger(label: "footlight-test") { _ in SwiftLogNoOpLogHandler() }

    static func start(_ stages: @escaping StageFactory = { _ in [ProbeScenes.echoStage()] }) throws -> Server {
        try TestServer.start(configure: { $0.drainTimeout = drainTimeout }, stages: stages)
    }

    /// After `run()` returned: no socket or session is left, the page was told (`bye`,
    /// then close 1001), and the port no longer accepts.
    static func expectStopped(_ server: Server, told client: TestClient) async throws {
        #expect(server.openConnectionCount == 0)
        #expect(server.sessionCount == 0)
        let close = try await client.waitForClose()
        #expect(close?.code == 1001)
        #expect(client.observation.mirror.saidBye)
        await #expect(throws: (any Error).self) { try await TestClient.connect(to: server, timeout: .seconds(2)) }
    }

    @Test("A ServiceGroup's graceful shutdown: the page is told, every socket closes, and run() returns")
    func groupGracefulShutdown() async throws {
        let server = try Self.start()
        let client = try await TestClient.connect(to: server)
        let group = ServiceGroup(services: [server], logger: Self.quiet)
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(ContinuousClock.now - start < Self.prompt)
        try await Self.expectStopped(server, told: client)
    }

    @Test("Cancelling the task running run() shuts the server down gracefully")
    func cancellation() async throws {
        let server = try Self.start()
        let client = try await TestClient.connect(to: server)
        let start = ContinuousClock.now
        let running = Task { await server.run() }
        running.cancel()
        await running.value
        #expect(ContinuousClock.now - start < Self.prompt)
        try await Self.expectStopped(server, told: client)
    }

    @Test("A turn in progress when the shutdown starts finishes before run() returns")
    func turnInProgressFinishes() async throws {
        let naps = ProbeScenes.NapLog()
        let server = try Self.start { _ in [ProbeScenes.nappingCounter(seconds: 0.5, log: naps)] }
        let client = try await TestClient.connect(to: server)
        try await client.send("nap", in: "counter")
        try await waitFor("the nap to start") { !naps.snapshot.napStarts.isEmpty }
        let running = Task { await server.run() }
        running.cancel()
        await running.value
        #expect(naps.snapshot.napEnds.count == 1, "run() returned while a turn was still running")
        try await Self.expectStopped(server, told: client)
    }

    @Test("run() returns once shutdown() called elsewhere has finished, and at once after it")
    func synchronousShutdown() async throws {
        let server = try Self.start()
        let client = try await TestClient.connect(to: server)
        let running = Task { await server.run() }
        server.shutdown()
        await running.value
        try await Self.expectStopped(server, told: client)
        await server.run()
    }
}
