import ArgumentParser
import DemoApp
import Footlight
import FootlightRedis
import FootlightServer
import Foundation
import Gallery
import Logging
import ServiceLifecycle
import TodoMVC

/// `footlight-demo`: serves the demo app until SIGTERM or SIGINT, then shuts down
/// gracefully (every page told, every socket closed) and exits 0.
@main
struct FootlightDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "footlight-demo",
        abstract: "Serves the Footlight demo app: static page over HTTP, live sessions over a WebSocket.")

    @Option(help: "The address to listen on (an IPv4 or IPv6 literal).")
    var host = "127.0.0.1"

    @Option(help: "The TCP port (0 picks a free one).")
    var port = 8080

    @Option(help: "The folder served over HTTP (default: Public, and Public/todomvc for --app todomvc).")
    var publicDirectory: String?

    @Option(
        name: .customLong("allow-origin"),
        help:
            "An origin allowed to open a WebSocket, e.g. http://localhost:8080 (repeatable; default: the server's own)."
    )
    var allowedOrigins: [String] = []

    @Option(help: "Service loops (default: one per core).")
    var loops: Int?

    @Option(help: "Seconds a disconnected session is kept for a resume.")
    var retention = 180

    @Option(
        help: "Log level: trace, debug, info, notice, warning, error, critical.",
        transform: { text in
            guard let level = Logger.Level(rawValue: text) else {
                throw ValidationError("unknown log level \"\(text)\"")
            }
            return level
        })
    var logLevel: Logger.Level = .info

    @Flag(help: "Tell clients the details of errors (which stage, which events, the type expected); for development.")
    var errorDetails = false

    @Option(help: "Open connections accepted at once from one IP address.")
    var maxConnectionsPerClient: Int?

    @OptionGroup var developmentOptions: DevelopmentOptions

    // Benchmark-only options, hidden from --help (see `--help-hidden`).

    @Option(
        help: ArgumentHelp(
            "Serve a plain echo WebSocket at this path (subprotocol footlight.echo).", visibility: .hidden))
    var echoPath: String?

    @Option(
        help: ArgumentHelp(
            "Sustained events per second accepted from one session (burst: twice that, at least the default).",
            visibility: .hidden))
    var eventsPerSecond: Double?

    @Option(help: "A PEM certificate: serve https:// and wss:// with it (needs --tls-key).")
    var tlsCertificate: String?

    @Option(help: "The PEM private key of --tls-certificate.")
    var tlsKey: String?

    @Option(
        help: ArgumentHelp(
            "The folder the auction keeps its accounts, lots and bids in (SQLite; created if missing). Default: $XDG_DATA_HOME/footlight-demo, or ~/.local/share/footlight-demo.",
            valueName: "path"))
    var dataDir: String?

    @Option(
        help: ArgumentHelp(
            "A Redis server (HOST:PORT) that carries the app's pub/sub between nodes, such as a sign-out ending the visitor's tabs on every node. Default: within this process.",
            valueName: "host:port"))
    var redis: String?

    @Option(help: "Seconds after a lot closes before it is listed again, so the auction never runs dry (0: never).")
    var relistAfter: Double = 120

    @Flag(help: "Place a simulated bid on a random open lot every few seconds, so the auction is alive.")
    var simulatedBidder = false

    @Option(help: "Seconds between the simulated bidder's bids.")
    var bidInterval: Double = 6

    @Option(help: "Seconds a graceful shutdown waits for sessions to end and sockets to close.")
    var drainTimeout: Double = 2

    @Option(
        help: ArgumentHelp(
            "Milliseconds one turn of a session's app code may hold its service loop before the loop goes on on a new thread.",
            valueName: "ms"))
    var turnBudget: Double = 5

    /// Which app each session runs.
    enum App: String, ExpressibleByArgument, CaseIterable {
        /// The auction kiosk (the demo).
        case auction
        /// The example scenes: counter, sign-up form, lot list with details, about modal.
        case examples
        /// The counter alone (what the server benchmark measures).
        case counter
        /// The kiosk's stage previews, each at `/previews/<name>` (``KioskPreviews``).
        case previews
        /// TodoMVC: each visitor's list in SQLite in the data directory, its filters at `/`,
        /// `/active` and `/completed`.
        case todomvc

        /// The addresses development mode's bindings check starts the app at: each that
        /// shows stages of its own without an event (signed out, the profile's link
        /// shows the sign-in dialog). None for the previews: they bind fixed documents
        /// and no event, by design.
        var bindingCheckPaths: [String] {
            switch self {
            case .auction: ["/", "/lots/lot-1", "/profile", "/no-such-page"]
            case .examples: ["/", "/lots/lot-1", "/tallies", "/entries", "/values", "/tasks", "/notes/1"]
            case .counter, .todomvc: ["/"]
            case .previews: []
            }
        }
    }

    /// The apps `--app` takes, as its help lists them: every case of ``App``.
    static let appNames = App.allCases.map(\.rawValue).joined(separator: ", ")

    @Option(help: ArgumentHelp("The app each session runs: " + appNames + "."))
    var app: App = .auction

    @Flag(help: "Print the names of the kiosk's stage previews, one a line, and exit.")
    var listPreviews = false

    @Flag(
        inversion: .prefixedNo,
        help: "Send each page with its first content (its stages' first mount, before the WebSocket opens).")
    var firstContent = true

    func validate() throws {
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-certificate and --tls-key go together")
        }
        guard drainTimeout.isFinite, drainTimeout >= 0 else {
            throw ValidationError("--drain-timeout must be a number of seconds, 0 or more")
        }
        guard turnBudget.isFinite, turnBudget >= 0.5 else {
            throw ValidationError("--turn-budget must be at least 0.5 milliseconds")
        }
        guard bidInterval.isFinite, bidInterval >= 0.05 else {
            throw ValidationError("--bid-interval must be at least 0.05 seconds")
        }
        guard relistAfter.isFinite, relistAfter >= 0 else {
            throw ValidationError("--relist-after must be a number of seconds, 0 or more")
        }
        if let redis, RedisAddress(redis) == nil {
            throw ValidationError("--redis must be HOST:PORT (e.g. 127.0.0.1:6379 or [::1]:6379), not \(redis)")
        }
    }

    /// `$XDG_DATA_HOME/footlight-demo`, or `~/.local/share/footlight-demo`: outside the
    /// repository, kept across runs.
    static var defaultDataDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let base = environment["XDG_DATA_HOME"], base.hasPrefix("/") { return base + "/footlight-demo" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/footlight-demo"
    }

    /// Serves (``serve()``) on Swift's concurrency pool while the main thread waits for it.
    /// Not an `AsyncParsableCommand`: its main thread would park in `dispatch_main`, which
    /// sleeps in `sigsuspend` with a read-only signal mask, and valgrind 3.19 (the memcheck
    /// of `scripts/test-valgrind`) dies on that call before the server starts.
    func run() throws {
        let command = self
        let outcome = Locked<Result<Void, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await command.serve()
                outcome.withLock { $0 = .success(()) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        try outcome.withLock { $0 }?.get()
    }

    /// Serves the chosen app until the service group shuts it down.
    func serve() async throws {
        if listPreviews {
            for preview in KioskPreviews.all { print(preview.name) }
            return
        }
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "footlight")
        logger.logLevel = logLevel
        var configuration = ServerConfiguration(
            publicDirectory: publicDirectory ?? (app == .todomvc ? "Public/todomvc" : "Public"))
        configuration.host = host
        configuration.port = port
        configuration.allowedOrigins = allowedOrigins.isEmpty ? nil : allowedOrigins
        if let loops { configuration.loops = loops }
        configuration.sessionLimits.retention = .seconds(retention)
        configuration.echoPath = echoPath
        configuration.sendsErrorDetails = errorDetails
        configuration.bindingCheckPaths = app.bindingCheckPaths
        configuration.turnBudget = .microseconds(Int(turnBudget * 1000))
        configuration.firstContent.isEnabled = firstContent
        configuration.drainTimeout = .milliseconds(Int(drainTimeout * 1000))
        if let maxConnectionsPerClient { configuration.maximumConnectionsPerClient = maxConnectionsPerClient }
        if let eventsPerSecond {
            configuration.sessionLimits.eventsPerSecond = eventsPerSecond
            configuration.sessionLimits.eventBurst = max(configuration.sessionLimits.eventBurst, 2 * eventsPerSecond)
        }
        configuration.logger = logger
        developmentOptions.apply(to: &configuration)
        if let tlsCertificate, let tlsKey {
            configuration.tls = TLSFiles(certificatePath: tlsCertificate, privateKeyPath: tlsKey)
        }

        // A Redis backplane when given one (connected in the background, retried while
        // it is away); otherwise the pub/sub stays within this process.
        var redisPubSub: RedisPubSub?
        if let address = redis.flatMap(RedisAddress.init) {
            redisPubSub = try RedisPubSub(.init(address: address), logger: logger)
            logger.info("the pub/sub goes through Redis at \(address)")
        }
        let pubSub: any PubSub = redisPubSub ?? LocalPubSub()

        let server: Server
        var bidder: SimulatedBidder<SystemRandomNumberGenerator>?
        switch app {
        case .auction:
            let directory = dataDir ?? Self.defaultDataDirectory
            let database = try KioskDatabase(directory: directory)
            logger.info("the accounts are in \(database.location)")
            // Visitors' cookies (and so their sign-ins) and resume tokens outlive a restart.
            configuration.resumeTokenKey = try SigningKey.load(in: directory)
            // With Redis, the lots and bids live there, shared by every node; the
            // accounts stay in the data directory (nodes on one machine share it).
            let ledger: any AuctionLedger =
                redis.flatMap(RedisAddress.init).map { RedisAuctionLedger(address: $0, logger: logger) }
                ?? SQLiteAuctionLedger(database: database, logger: logger)
            let auction = try AuctionService(
                lots: AuctionCatalogue.lots(), clock: DispatchAuctionClock(), ledger: ledger,
                relistAfter: relistAfter > 0 ? .milliseconds(Int(relistAfter * 1000)) : nil, pubSub: redisPubSub,
                logger: logger)
            logger.info("the auction's lots and bids are in \(ledger.location)")
            // Profile pictures: files in the data directory, served as they are.
            let avatars = try AvatarStore(database: database, directory: directory + "/avatars")
            configuration.servedFolders.append(
                ServedFolder(
                    path: AvatarStore.path, directory: avatars.directory,
                    cacheControl: "public, max-age=31536000, immutable"))
            let services = KioskServices(
                auction: auction, accounts: AccountDirectory(database: database),
                languages: VisitorLanguages(database: database, logger: logger), avatars: avatars,
                accountWork: BlockingWork(), pubSub: pubSub, logger: logger)
            // Its bids as CSV and its lots as JSON, beside the page.
            KioskRoutes.add(to: &configuration.routes, services: services)
            server = try Server(configuration: configuration, app: KioskApp.entry(services))
            if simulatedBidder {
                bidder = SimulatedBidder(
                    service: auction, interval: .milliseconds(Int(bidInterval * 1000)),
                    random: SystemRandomNumberGenerator())
                bidder?.start()
            }
        case .examples: server = try Server(configuration: configuration, app: ExamplesApp.entry)
        case .counter: server = try Server(configuration: configuration) { _ in [CounterScene.makeStage()] }
        case .previews: server = try Server(configuration: configuration, app: StagePreview.entry(KioskPreviews.all))
        case .todomvc:
            let directory = dataDir ?? Self.defaultDataDirectory
            let store = try TodoStore(directory: directory)
            // Visitors (and so their lists) outlive a restart: the cookie's signing key is kept.
            configuration.resumeTokenKey = try SigningKey.load(in: directory)
            logger.info("the lists are in \(store.location)")
            server = try Server(
                configuration: configuration, app: TodoApp.entry(TodoLists(store: store, logger: logger)))
        }
        let address =
            "\(configuration.tls == nil ? "http" : "https")://\(host.contains(":") ? "[\(host)]" : host):\(server.port)/"

        // Graceful shutdown on SIGTERM and SIGINT: every page told, every socket closed.
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: server),
                    .init(
                        service: Announcement(line: "Footlight demo on \(address)"), successTerminationBehavior: .ignore
                    ),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        bidder?.stop()
        redisPubSub?.shutdown()
        print("Footlight demo stopped")
    }
}
