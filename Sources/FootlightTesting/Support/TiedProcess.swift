import Foundation

/// Starts the servers a test needs (`redis-server`, the demo, the cluster script) tied to
/// the test process: the kernel kills each one when the test process ends, however it
/// ends. A `swift test` stopped by Ctrl-C, by a closed pipe or by SIGKILL never reaches
/// the `deinit`s and `defer`s that stop its servers, and they went on running, taking
/// ports and CPU.
///
/// The child starts through util-linux's `setpriv --pdeathsig KILL`, which then runs the
/// program itself (the same process, so its PID is the child's). prctl(2) ties that
/// signal to the thread that started the child, so every child is started from one
/// thread that lives as long as the process. That thread blocks no signal either: a
/// child starts with its starter's signal mask, and one started from a Dispatch worker
/// (which blocks SIGTERM) could not be stopped with SIGTERM.
package enum TiedProcess {
    /// The program that ties a child to its parent.
    static let setpriv = "/usr/bin/setpriv"

    /// Runs `process` tied to the test process. Its executable and arguments are
    /// rewritten to go through `setpriv` (when there is none, it runs untied).
    package static func run(_ process: Process) throws {
        if let program = process.executableURL?.path, FileManager.default.isExecutableFile(atPath: setpriv) {
            process.arguments = ["--pdeathsig", "KILL", "--", program] + (process.arguments ?? [])
            process.executableURL = URL(fileURLWithPath: setpriv)
        }
        try Starter.shared.run(process)
    }

    /// The one thread every child is started from.
    private final class Starter: @unchecked Sendable {
        // @unchecked: `work` is touched only under `condition`.
        static let shared = Starter()

        private let condition = NSCondition()
        private var work: [() -> Void] = []

        private init() {
            let thread = Thread { [self] in serve() }
            thread.name = "footlight-test-children"
            thread.start()
        }

        /// Runs `process.run()` on the starter's thread and returns what it threw.
        func run(_ process: Process) throws {
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var failure: (any Error)?
            condition.lock()
            work.append {
                do { try process.run() } catch { failure = error }
                done.signal()
            }
            condition.signal()
            condition.unlock()
            done.wait()
            if let failure { throw failure }
        }

        private func serve() {
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            while true {
                condition.lock()
                while work.isEmpty { condition.wait() }
                let next = work.removeFirst()
                condition.unlock()
                next()
            }
        }
    }
}
