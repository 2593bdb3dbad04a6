import FootlightTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `scripts/cluster` of the repository (redis-server, footlight-demo nodes and nginx on
/// loopback ports of its own) running the debug `footlight-demo` beside the test bundle,
/// with a temporary data directory. Stopped with SIGTERM (it stops what it started)
/// when released.
final class ClusterProcess {
    let process: Process
    /// nginx's port: the one public port.
    let port: Int
    /// Each node's port and pid.
    let nodes: [(port: Int, pid: Int32)]
    private let data: String

    /// Starts a cluster of `nodes` nodes and waits (up to 90 s: the script runs the
    /// bootstrap first) for `cluster ready on http://127.0.0.1:P`.
    init(nodes count: Int) throws {
        let here = URL(fileURLWithPath: #filePath)
        let repository = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("footlight-demo")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw ClusterProcessError("no footlight-demo at \(binary.path); run swift build --build-tests first")
        }
        data = FileManager.default.temporaryDirectory.appendingPathComponent("footlight-cluster-\(UUID())").path
        let port = try LoopbackPort.free()
        let output = Pipe()
        process = Process()
        // Through python3, which unblocks every signal first: Process passes on the
        // spawning thread's signal mask (a Dispatch worker's blocks SIGTERM), and bash can
        // neither unblock a signal nor trap one it started with blocked, so the script
        // would never hear the SIGTERM that makes it stop what it started.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-c",
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
            repository.appendingPathComponent("scripts/cluster").path, "--port", "\(port)", "--nodes", "\(count)",
        ]
        process.currentDirectoryURL = repository
        var environment = ProcessInfo.processInfo.environment
        environment["FOOTLIGHT_DEMO_BIN"] = binary.path
        environment["FOOTLIGHT_CLUSTER_DATA"] = data
        process.environment = environment
        process.standardInput = FileHandle.nullDevice  // none of the test process's own pipes
        process.standardOutput = output
        process.standardError = output  // so a start that fails says why
        try TiedProcess.run(process)
        let process = self.process
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
        defer { watchdog.cancel() }
        var printed = ""
        for _ in 0..<1000 where !printed.contains("cluster ready on ") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            printed += String(decoding: chunk, as: UTF8.self)
        }
        guard printed.contains("cluster ready on http://127.0.0.1:\(port)") else {
            if process.isRunning { process.terminate() }
            throw ClusterProcessError("scripts/cluster did not get ready: \(printed)")
        }
        var nodes: [(Int, Int32)] = []
        for line in printed.split(separator: "\n") where line.hasPrefix("node ") {
            // node I pid PID port PORT
            let words = line.split(separator: " ")
            guard words.count == 6, let pid = Int32(words[3]), let nodePort = Int(words[5]) else {
                throw ClusterProcessError("unexpected line from scripts/cluster: \(line)")
            }
            nodes.append((nodePort, pid))
        }
        guard nodes.count == count else { throw ClusterProcessError("expected \(count) nodes: \(printed)") }
        self.port = port
        self.nodes = nodes
    }

    deinit {
        if process.isRunning {
            process.terminate()
            let deadline = Date() + 20
            while process.isRunning, Date() < deadline { usleep(50_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        try? FileManager.default.removeItem(atPath: data)
    }
}

struct ClusterProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
