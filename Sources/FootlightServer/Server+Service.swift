import Foundation
import ServiceLifecycle

extension Server: Service {
    /// Serves until a graceful shutdown or the cancellation of the task running it, then
    /// shuts down and returns: every page is told the server is going away (`bye`, then
    /// close 1001), the sessions' turns in progress finish, every socket is closed (for
    /// ``ServerConfiguration/drainTimeout`` at most), and the loops stop before it returns.
    ///
    /// The server serves from the moment it is made; `run()` is how a `ServiceGroup`
    /// stops it, on the signals it is given:
    ///
    /// ```swift
    /// let server = try Server(configuration: configuration, app: MyApp.entry)
    /// let group = ServiceGroup(
    ///     services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    /// try await group.run()
    /// ```
    ///
    /// It also returns when ``shutdown()`` is called from elsewhere, once that has finished.
    public func run() async {
        await withTaskCancellationOrGracefulShutdownHandler {
            await finished.wait()
        } onCancelOrGracefulShutdown: {
            self.startShutdown()
        }
    }

    /// Runs ``shutdown()`` on a thread of its own: it blocks while sessions end and loops
    /// stop, which no thread of the cooperative pool may do (there is one per core).
    private func startShutdown() {
        let thread = Thread { self.shutdown() }
        thread.name = "footlight-shutdown"
        thread.start()
    }
}
