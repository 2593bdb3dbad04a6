import Dispatch
import Footlight
import FootlightJSON
import Foundation
import Logging

/// A Footlight server: serves the public folder over HTTP and hosts one session per
/// browser tab over a WebSocket, on one port.
///
/// It serves from the moment it is made. An app runs it as a `Service` in a
/// swift-service-lifecycle `ServiceGroup`, which shuts it down gracefully on SIGTERM or
/// SIGINT (see ``run()``):
///
/// ```swift
/// var configuration = ServerConfiguration(publicDirectory: "Public")
/// configuration.port = 0                       // any free port
/// let server = try Server(configuration: configuration) { environment in
///     [CounterScene.makeStage()]
/// }
/// print("listening on \(server.port)")
/// let group = ServiceGroup(
///     services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: configuration.logger)
/// try await group.run()                        // returns once every page was told and the loops stopped
/// ```
///
/// Code without a task to run it in stops it with ``shutdown()``.
///
/// Threading: an acceptor thread hands sockets to ``ServerConfiguration/loops`` service
/// loops (one libwebsockets context and thread each); a session runs on the loop that
/// owns its connection, within ``ServerConfiguration/turnBudget`` per turn. See the
/// Threading article.
public final class Server: Sendable {
    /// The configuration the server runs with.
    public let configuration: ServerConfiguration
    /// The port the server listens on.
    public let port: Int
    let registry: SessionRegistry
    private let loops: [ServiceLoop]
    private let acceptor: Acceptor
    private let watchdog: LoopWatchdog
    private let core: ServerCore
    private let stopped = Locked(false)
    /// Open when the first ``shutdown(drainTimeout:)`` has finished: what ``run()`` waits for.
    let finished = Latch()
    /// Notified when the last open socket closes, for a shutdown waiting for them.
    private let socketsClosed = DrainCondition()

    /// Binds the port, starts the loops and begins accepting connections. Each new
    /// session shows the stages `stages` makes, side by side at the root.
    public convenience init(configuration: ServerConfiguration, stages: @escaping StageFactory) throws(ServerError) {
        try self.init(configuration: configuration) { context, _ in
            for stage in stages(context.environment) { context.show(PreparedStage(stage: stage)) }
        }
    }

    /// Binds the port, starts the loops and begins accepting connections. Each new
    /// session starts with `app`, which shows its root scenes through the context (and
    /// the scenes a deep link's path names).
    public init(configuration: ServerConfiguration, app: @escaping AppEntry) throws(ServerError) {
        self.configuration = configuration
        System.raiseOpenFileLimit()
        let files = try StaticFiles(root: configuration.publicDirectory)
        let shadowed = StaticAssets.shadowedRuntime(in: files.root)
        if !shadowed.isEmpty {
            configuration.logger.warning(
                "never served from \(files.root): \(shadowed.joined(separator: ", ")); the runtime is the framework's own"
            )
        }
        try configuration.tls?.checkReadable()
        Self.checkBindingsInDevelopment(configuration: configuration, root: files.root, app: app)
        let registry = SessionRegistry(
            sessions: SessionState.Configuration(
                limits: configuration.sessionLimits, sendsErrorDetails: configuration.sendsErrorDetails,
                maximumMessageBytes: configuration.maximumMessageBytes),
            tokens: try SignedIDs(key: configuration.resumeTokenKey),
            uploads: try UploadRegistry(
                configuration: configuration.uploads, key: configuration.resumeTokenKey, logger: configuration.logger),
            logger: configuration.logger, firstContent: configuration.firstContent, entry: app)
        let core = try ServerCore(
            configuration: configuration, files: files,
            assets: try StaticAssets(root: files.root, developmentChannel: configuration.developmentChannelInUse),
            registry: registry,
            visitors: try VisitorCookies(key: configuration.resumeTokenKey, secure: configuration.tls != nil))
        let socket = try ListeningSocket(host: configuration.host, port: configuration.port)
        var loops: [ServiceLoop] = []
        do {
            for index in 0..<max(1, configuration.loops) {
                loops.append(try ServiceLoop.server(index: index, delegate: core, configuration: configuration))
            }
        } catch {
            for loop in loops { loop.stop() }
            socket.close()
            throw error
        }
        let acceptor: Acceptor
        do {
            let socketsClosed = socketsClosed
            acceptor = try Acceptor(
                socket: socket, loops: loops, maximumConnections: configuration.maximumConnections,
                maximumPerClient: configuration.maximumConnectionsPerClient, logger: configuration.logger,
                allClosed: { socketsClosed.notify() })
        } catch {
            for loop in loops { loop.stop() }
            socket.close()
            throw error
        }
        for loop in loops {
            // Weak: the acceptor holds the loops, so a strong capture would be a cycle (a
            // leak per server, found by valgrind).
            loop.execute {
                loop.onAdoptedSocketClosed = { [weak acceptor] client in
                    acceptor?.closed(client)
                }
            }
        }
        self.port = socket.port
        self.registry = registry
        self.loops = loops
        self.acceptor = acceptor
        self.core = core
        watchdog = LoopWatchdog(loops: loops, budget: configuration.turnBudget, logger: configuration.logger)
        acceptor.start()
        configuration.logger.info(
            "Footlight listening on \(configuration.host):\(socket.port) with \(loops.count) loop(s), serving \(files.root)"
        )
    }

    /// Live sessions (connected, or disconnected and kept for a resume).
    public var sessionCount: Int { registry.count }
    /// Disconnected sessions kept for a resume.
    public var retainedSessionCount: Int { registry.retainedCount }
    /// Connections refused at accept because ``ServerConfiguration/maximumConnections``
    /// were open, or ``ServerConfiguration/maximumConnectionsPerClient`` from one address.
    public var refusedConnectionCount: Int { acceptor.refusedConnections.load(ordering: .relaxed) }
    /// Sockets accepted and not yet closed.
    public var openConnectionCount: Int { acceptor.openConnections.load(ordering: .relaxed) }

    /// The most bytes any one connection had waiting for its socket since the start:
    /// with a slow reader this stays near ``SessionLimits/outboxHighWater``.
    public var peakUnsentBytes: Int {
        loops.map { $0.peakUnsentBytes.load(ordering: .relaxed) }.max() ?? 0
    }

    /// Times a loop was handed to a fresh thread because app code overran
    /// ``ServerConfiguration/turnBudget``.
    public var loopHandOffCount: Int {
        loops.reduce(0) { $0 + $1.handOffs.load(ordering: .relaxed) }
    }

    /// Whole WebSocket messages read from clients since the start.
    public var receivedMessageCount: Int {
        loops.reduce(0) { $0 + $1.receivedMessages.load(ordering: .relaxed) }
    }

    /// Whole WebSocket messages written to clients since the start (pings and close
    /// frames not counted).
    public var sentMessageCount: Int {
        loops.reduce(0) { $0 + $1.sentMessages.load(ordering: .relaxed) }
    }

    /// Writes `payload` as one text message to every open connection of the echo
    /// endpoint (``ServerConfiguration/echoPath``), each loop to its own at once: the
    /// transport's floor for a change fanned out to many sessions, in benchmarks.
    package func sendToEchoConnections(_ payload: [UInt8]) {
        for loop in loops { loop.sendToEchoConnections(payload) }
    }

    /// When a loop last wrote a message to a client, on ``System/monotonicNanoseconds``
    /// (0 before the first).
    public var lastMessageSentNanoseconds: UInt64 {
        loops.map { $0.lastSentNanoseconds.load(ordering: .relaxed) }.max() ?? 0
    }

    /// When a loop was last handed to a fresh thread and that thread began servicing it.
    package var lastLoopHandOff: ContinuousClock.Instant? {
        loops.compactMap { $0.lastHandOff.withLock { $0 } }.max()
    }

    /// The most client messages any one connection had waiting for its session: with
    /// a stuck Director this stays near ``ServerConfiguration/maximumQueuedMessages``.
    public var peakQueuedMessages: Int {
        loops.map { $0.peakQueuedMessages.load(ordering: .relaxed) }.max() ?? 0
    }

    /// Shuts down as ``shutdown(drainTimeout:)`` does, waiting up to the configuration's
    /// ``ServerConfiguration/drainTimeout``.
    public func shutdown() {
        shutdown(drainTimeout: configuration.drainTimeout)
    }

    /// Stops accepting, tells every client the server is going away (`bye`, then close
    /// 1001), waits up to `drainTimeout` for the sessions' turns to finish and the sockets
    /// to close, then stops the loops. Blocks the calling thread meanwhile (``run()`` does
    /// not block its task). Safe to call more than once; later calls return at once.
    public func shutdown(drainTimeout: Duration) {
        let first = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        configuration.logger.info("Footlight shutting down")
        acceptor.stop()
        let start = ContinuousClock.now
        registry.endAll(reason: "the server is shutting down", wait: drainTimeout)
        socketsClosed.wait(timeout: drainTimeout - (ContinuousClock.now - start)) { openConnectionCount == 0 }
        watchdog.stop()
        for loop in loops { loop.stop() }
        core.router?.stop()
        registry.uploads.close()
        finished.open()
    }

    deinit {
        shutdown(drainTimeout: .zero)
    }
}

/// A stage made in advance, shown as a scene.
private struct PreparedStage: Scene {
    let stage: Stage
    func makeStage(context: Context) -> Stage { stage }
}
