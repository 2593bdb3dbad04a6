import FootlightRedis
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `redis-server` of a test's own: on 127.0.0.1 and a free port, with its files in a
/// temporary directory, stopped by its PID (and killed by the kernel if the test
/// process ends first, ``TiedProcess``). It can be killed and started again on the same
/// port, to test what Redis's absence and return do.
///
/// ```swift
/// let redis = try RedisServer.start()
/// defer { redis.stop() }
/// let pubSub = try RedisPubSub(.init(address: redis.address))
/// ```
public final class RedisServer: @unchecked Sendable {
    // @unchecked: `process` is replaced only by `start(…)` and `restart()`, which tests
    // call from one task.
    /// Where it listens.
    public let address: RedisAddress
    /// Its working directory (append-only files, the dump), removed by ``stop()``.
    public let directory: String
    private let appendOnly: Bool
    private var process: Process?

    /// The running server's PID, or nil when stopped.
    public var pid: Int32? { process.flatMap { $0.isRunning ? $0.processIdentifier : nil } }

    private init(port: Int, directory: String, appendOnly: Bool) {
        address = RedisAddress(host: "127.0.0.1", port: port)
        self.directory = directory
        self.appendOnly = appendOnly
    }

    /// Starts `redis-server` (from `PATH`) on a free loopback port and waits (up to
    /// 10 s) until it answers `PING`. With `appendOnly`, it keeps an append-only file
    /// synced on every write, so a restart keeps everything written.
    public static func start(appendOnly: Bool = false) throws -> RedisServer {
        let directory = NSTemporaryDirectory() + "footlight-redis-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var lastError: any Error = RedisServerError(.didNotStart, "no port was tried")
        // A free port can be taken between the probe and redis-server's bind: try a few.
        for _ in 0..<5 {
            let server = RedisServer(port: try LoopbackPort.free(), directory: directory, appendOnly: appendOnly)
            do {
                try server.launch()
                return server
            } catch {
                lastError = error
            }
        }
        try? FileManager.default.removeItem(atPath: directory)
        throw lastError
    }

    /// Kills the server with SIGKILL (no shutdown save) and waits for it to exit.
    public func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Starts the server again on the same port and directory, after ``kill()``.
    public func restart() throws {
        kill()
        try launch()
    }

    /// Stops the server (SIGKILL: a test's Redis has nothing to save) and removes its
    /// directory.
    public func stop() {
        kill()
        process = nil
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }

    private func launch() throws {
        let process = Process()
        process.executableURL = try Self.executable()
        var arguments = [
            "--bind", "127.0.0.1", "--port", String(address.port), "--dir", directory, "--save", "",
            "--daemonize", "no", "--protected-mode", "yes", "--logfile", directory + "/redis.log",
        ]
        arguments += appendOnly ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]
        process.arguments = arguments
        // None of the test process's own: a server outliving a test process that crashed
        // must not hold the pipes `swift test` reads.
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try TiedProcess.run(process)
        self.process = process
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            guard process.isRunning else { break }
            if let connection = try? RedisConnection(to: address, timeout: .milliseconds(500)),
                (try? connection.command("PING")) == .status("PONG")
            {
                return
            }
            usleep(20_000)
        }
        let log = (try? String(contentsOfFile: directory + "/redis.log", encoding: .utf8)) ?? ""
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        self.process = nil
        throw RedisServerError(
            .didNotStart, "redis-server did not answer on \(address) within 10 s: \(log.suffix(400))")
    }

    private static func executable() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") + ["/usr/bin", "/usr/sbin"] {
            let candidate = "\(folder)/redis-server"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        throw RedisServerError(.notInstalled, "no redis-server on PATH; run scripts/bootstrap")
    }
}

/// `redis-server` could not be found or started.
public struct RedisServerError: Error, CustomStringConvertible {
    /// The class of failure; match on it (`error.kind == .notInstalled`), it can grow.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case notInstalled, didNotStart
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// No `redis-server` on the PATH.
        public static let notInstalled = Kind(.notInstalled)
        /// It did not answer `PING` in time (or no port could be had).
        public static let didNotStart = Kind(.didNotStart)

        public var description: String { value.rawValue }
    }

    public let kind: Kind
    public let description: String
    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
