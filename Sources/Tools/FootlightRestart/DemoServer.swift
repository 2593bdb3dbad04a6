import Dispatch
import Foundation

/// One `footlight-demo --app auction` process of the benchmark's own, listening on
/// 127.0.0.1 only, its log appended to a file the run keeps.
final class DemoServer {
    /// What every server process of the benchmark is started with.
    struct Setup: Sendable {
        /// The release `footlight-demo` binary.
        let executable: String
        /// The folder it serves the page from.
        let publicDirectory: String
        /// Its `--max-connections-per-client`: every session comes from 127.0.0.1.
        let maximumConnectionsPerClient: Int
    }

    let port: Int
    /// When the process printed its address (read from its stdout): it listens from then.
    let readyAt: ContinuousClock.Instant
    private let process: Process
    /// The read end of its stdout, kept open so its last words on SIGTERM find a reader.
    private let output: Pipe

    var pid: Int32 { process.processIdentifier }

    /// Starts the auction on `port` (0: an ephemeral one) with its data in
    /// `dataDirectory`, and waits up to 30 s for the address it prints.
    init(_ setup: Setup, dataDirectory: String, port: Int, log: FileHandle) throws(RestartError) {
        process = Process()
        process.executableURL = URL(fileURLWithPath: setup.executable)
        process.arguments = [
            "--app", "auction", "--host", "127.0.0.1", "--port", "\(port)", "--log-level", "warning",
            "--data-dir", dataDirectory, "--public-directory", setup.publicDirectory,
            "--max-connections-per-client", "\(setup.maximumConnectionsPerClient)",
        ]
        output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = log
        do {
            try process.run()
        } catch {
            throw RestartError("could not start \(setup.executable): \(error)")
        }
        ExitCleanup.add(process: process.processIdentifier)

        // The line comes at once; a server that never prints it is killed, which ends
        // the read below.
        let process = self.process
        let watchdog = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
        defer { watchdog.cancel() }
        var printed = ""
        var found: (port: Int, at: ContinuousClock.Instant)?
        for _ in 0..<100 where found == nil {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            printed += String(decoding: chunk, as: UTF8.self)
            found = Self.port(in: printed).map { ($0, .now) }
        }
        guard let found else {
            _ = Self.sigkill(process, within: .seconds(5))
            throw RestartError(
                "footlight-demo printed no address within 30 s (it printed \(printed.debugDescription)); see its log")
        }
        self.port = found.port
        readyAt = found.at
    }

    /// The port in "Footlight demo on http://127.0.0.1:PORT/".
    private static func port(in text: String) -> Int? {
        let prefix = "Footlight demo on http://127.0.0.1:"
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return nil }
        return Int(line.dropFirst(prefix.count).prefix { $0.isNumber })
    }

    /// Kills the process with SIGKILL (a crash, as far as its sessions know) and waits
    /// up to 5 s for it to exit.
    func sigkill() throws(RestartError) {
        guard Self.sigkill(process, within: .seconds(5)) else {
            throw RestartError("footlight-demo (pid \(pid)) was still running 5 s after SIGKILL")
        }
    }

    /// Stops the process with SIGTERM, or with SIGKILL when it is still running 5 s later
    /// (said on stderr).
    func stop() {
        guard process.isRunning else {
            ExitCleanup.remove(process: pid)
            return
        }
        kill(pid, SIGTERM)
        if !Self.waitForExit(process, within: .seconds(5)) {
            FileHandle.standardError.write(Data("restart: footlight-demo ignored SIGTERM for 5 s; killing it\n".utf8))
            _ = Self.sigkill(process, within: .seconds(5))
        }
        ExitCleanup.remove(process: pid)
    }

    /// SIGKILL, then waits up to `timeout` for the exit; false if it is still running.
    private static func sigkill(_ process: Process, within timeout: Duration) -> Bool {
        kill(process.processIdentifier, SIGKILL)
        guard waitForExit(process, within: timeout) else { return false }
        ExitCleanup.remove(process: process.processIdentifier)
        return true
    }

    private static func waitForExit(_ process: Process, within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { usleep(5_000) }
        return !process.isRunning
    }
}
