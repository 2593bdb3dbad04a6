import FootlightTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `footlight-demo` process of its own (the debug binary beside the test bundle),
/// for measurements the shared test process would blur: its memory, its descriptors,
/// its exit on SIGTERM. Killed when released if still running.
final class DemoProcess {
    let process: Process
    let port: Int
    /// Where the demo writes its log (its standard error), removed with this.
    let log: URL
    var pid: Int32 { process.processIdentifier }

    /// Starts the demo on 127.0.0.1 and `port` (0: an ephemeral one) with `arguments`
    /// added, and waits (up to 30 s) for the address it prints.
    init(arguments: [String], port: Int = 0) throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("footlight-demo")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw DemoProcessError("no footlight-demo at \(executable.path); run swift build --build-tests first")
        }
        let output = Pipe()
        // A file of its own, not the test process's standard error: a demo outliving a
        // test process that crashed held the pipe `swift test` reads, and `swift test`
        // waited for it for good.
        log = FileManager.default.temporaryDirectory.appendingPathComponent("footlight-demo-\(UUID()).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process = Process()
        process.executableURL = executable
        process.arguments =
            ["--host", "127.0.0.1", "--port", "\(port)", "--public-directory", try TestServer.publicDirectory()]
            + arguments
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardInput = FileHandle.nullDevice
        try TiedProcess.run(process)
        // The one line this waits for comes at once; a demo that never prints is killed.
        let process = self.process
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
        defer { watchdog.cancel() }
        var printed = ""
        var port: Int?
        for _ in 0..<100 where port == nil {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            printed += String(decoding: chunk, as: UTF8.self)
            port = Self.port(in: printed)
        }
        guard let port else {
            if process.isRunning { process.terminate() }
            let logged = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw DemoProcessError("footlight-demo printed no address: \(printed); its log: \(logged)")
        }
        self.port = port
    }

    /// The port in "Footlight demo on http://127.0.0.1:PORT/".
    private static func port(in text: String) -> Int? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Footlight demo on http://") }),
            let colon = line.lastIndex(of: ":")
        else { return nil }
        return Int(line[line.index(after: colon)...].prefix { $0.isNumber })
    }

    /// Resident memory (`VmRSS` in `/proc/PID/status`), in KiB.
    var residentKiB: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
    }

    /// Open file descriptors (entries of `/proc/PID/fd`).
    var openDescriptors: Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
    }

    /// Sends SIGTERM, or `signal`.
    func terminate(with signal: Int32 = SIGTERM) {
        kill(pid, signal)
    }

    /// Waits up to `timeout` for the process to exit; returns its exit status, or nil
    /// if it is still running (or was killed by a signal).
    func waitForExit(timeout: Duration) async throws -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        guard !process.isRunning, process.terminationReason == .exit else { return nil }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(at: log)
    }
}

struct DemoProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
