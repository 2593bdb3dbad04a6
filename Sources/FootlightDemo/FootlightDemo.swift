import ArgumentParser
import DemoApp
import Dispatch
import Footlight
import FootlightServer
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// `footlight-demo`: serves the demo app.
@main
struct FootlightDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "footlight-demo",
        abstract: "Serves the Footlight demo app: static page over HTTP, live sessions over a WebSocket.")

    @Option(help: "The address to listen on (an IPv4 or IPv6 literal).")
    var host = "127.0.0.1"

    @Option(help: "The TCP port (0 picks a free one).")
    var port = 8080

    @Option(help: "The folder served over HTTP.")
    var publicDirectory = "Public"

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

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    func run() throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "footlight")
        logger.logLevel = logLevel
        var configuration = ServerConfiguration(publicDirectory: publicDirectory)
        configuration.host = host
        configuration.port = port
        configuration.allowedOrigins = allowedOrigins.isEmpty ? nil : allowedOrigins
        if let loops { configuration.loops = loops }
        configuration.sessionLimits.retention = .seconds(retention)
        configuration.logger = logger

        let server = try Server(configuration: configuration) { _ in [CounterScene.makeStage()] }
        print("Footlight demo on http://\(host.contains(":") ? "[\(host)]" : host):\(server.port)/")

        // Graceful shutdown on SIGINT and SIGTERM: sessions are told, sockets closed.
        let stop = DispatchSemaphore(value: 0)
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            sources.append(source)
        }
        stop.wait()
        server.shutdown()
        print("Footlight demo stopped")
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
