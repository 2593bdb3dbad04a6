/// A ``WebSocketClientLoop`` serviced on a thread of its own (a ``ServiceLoop``), for
/// clients that live on other threads: they post work with ``execute(_:)``, which
/// runs on the loop thread and gets the loop.
///
/// ```swift
/// let thread = try WebSocketClientThread(name: "my-client")
/// let connection = WebSocketClientThread.Bound<WebSocketClientConnection?>(nil, on: thread)
/// thread.execute { loop in
///     connection.value = WebSocketClientConnection(on: loop, delegate: delegate)
///     connection.value?.connect(host: "127.0.0.1", port: port, path: "/ws")
/// }
/// ```
package final class WebSocketClientThread: Sendable {
    /// The loop and its thread (internal for the hand-off tests).
    let serviceLoop: ServiceLoop
    // Handed only to work that runs on the service loop's thread, which it is confined to.
    nonisolated(unsafe) private let loop: WebSocketClientLoop

    /// Starts the thread (named `name`) and creates the loop's context on it.
    package init(name: String) throws(WebSocketClientError) {
        nonisolated(unsafe) var made: WebSocketClientLoop?
        nonisolated(unsafe) var failure: WebSocketClientError?
        do {
            serviceLoop = try ServiceLoop(name: name) { user in
                // On the new thread; ServiceLoop's init waits for it to return.
                do throws(WebSocketClientError) {
                    made = try WebSocketClientLoop(serviceLoop: user)
                } catch {
                    failure = error
                }
                return made?.context
            }
        } catch {
            throw failure ?? WebSocketClientError.contextNotCreated.with(detail: "\(error)")
        }
        loop = made!
        // The context points into the loop's protocol table: keep it until the
        // context is destroyed, even if this handle goes first.
        serviceLoop.keepAlive(loop)
    }

    /// Runs `work` on the loop thread, after everything posted before it. Returns false
    /// (and drops the work) when the thread has stopped.
    @discardableResult
    package func execute(_ work: @escaping @Sendable (WebSocketClientLoop) -> Void) -> Bool {
        serviceLoop.execute { [self] in work(loop) }
    }

    /// Traps when called off the loop thread (``ServiceLoop/preconditionInLoop(_:)``).
    @inline(__always)
    package func preconditionInLoop(_ function: StaticString = #function) {
        serviceLoop.preconditionInLoop(function)
    }

    /// Stops the thread after the work already posted; every connection still open
    /// ends. Safe to call more than once.
    package func stop() {
        serviceLoop.stop()
    }
}
