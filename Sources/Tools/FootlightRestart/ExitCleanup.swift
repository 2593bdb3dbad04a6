import Dispatch
import Foundation
import Synchronization

/// What the program leaves behind until it is done with it — the server processes it
/// started, the temporary folders of its runs — and takes away when it exits for any
/// reason it can catch (a normal end, a failure, SIGINT, SIGTERM or SIGHUP): the
/// servers get SIGKILL, the folders are removed. So no demo server outlives the
/// benchmark.
enum ExitCleanup {
    private static let processes = Mutex<Set<Int32>>([])
    private static let directories = Mutex<Set<String>>([])
    /// Kept so the handlers stay installed; written once, before any other thread starts.
    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []

    /// Cleans up when the program exits, and makes the signals that end it exit
    /// through the same path. Call once, first.
    static func install() {
        atexit { ExitCleanup.run() }
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                FileHandle.standardError.write(Data("restart: stopped by signal \(signalNumber)\n".utf8))
                exit(128 + signalNumber)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Remembers a child just started.
    static func add(process pid: Int32) {
        processes.withLock { _ = $0.insert(pid) }
    }

    /// Forgets a child that has exited (its pid may be reused).
    static func remove(process pid: Int32) {
        processes.withLock { _ = $0.remove(pid) }
    }

    /// Remembers a folder to remove at exit if the run that made it cannot.
    static func add(directory path: String) {
        directories.withLock { _ = $0.insert(path) }
    }

    /// Removes a folder now and forgets it.
    static func remove(directory path: String) {
        try? FileManager.default.removeItem(atPath: path)
        directories.withLock { _ = $0.remove(path) }
    }

    /// Sends SIGKILL to every child still remembered, then removes every folder.
    private static func run() {
        for pid in processes.withLock({ $0 }) { kill(pid, SIGKILL) }
        for path in directories.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
