/// Where a session's turns run: the live server's service loops, or a test's queue
/// (`FootlightTesting`'s in-memory transport). A session runs its turns on the loop of
/// the connection it has, so that an event needs no thread hop.
package protocol SessionLoop: AnyObject, Sendable {
    /// Runs `work` on the loop's thread, after what is already waiting; false when the
    /// loop has stopped (the work is not run).
    func execute(_ work: @escaping @Sendable () -> Void) -> Bool
    /// Whether the caller runs on the loop's thread now.
    var inLoop: Bool { get }
    /// App code starts a turn on the loop's thread; returns the turn's mark for
    /// ``endAppCode(_:)``. (The live loop's watchdog watches it.)
    func beginAppCode() -> UInt64
    /// App code of turn `turn` is done: false when it overran the loop's budget and the
    /// loop has moved to another thread meanwhile (the session then leaves it).
    func endAppCode(_ turn: UInt64) -> Bool
}

/// A connection a session writes to: a WebSocket of the live server, or a test's
/// in-memory page. Every method may be called from any thread.
package protocol SessionConnection: AnyObject, Sendable {
    var id: ConnectionID { get }
    /// The loop the connection lives on, where the session's turns then run.
    var home: any SessionLoop { get }
    /// Bytes queued and not yet written.
    var unsentBytes: Int { get }
    /// Queues messages, in order.
    func send(_ messages: [WireMessage])
    /// Closes after what was queued, with a WebSocket close code.
    func close(code: UInt16, reason: String)
    /// What to run (once per request) when everything queued has been written.
    func setDrainHandler(_ handler: (@Sendable () -> Void)?)
    /// Asks for the drain handler to run once everything queued has been written.
    func requestDrainSignal()
}
