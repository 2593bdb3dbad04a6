/// A connection's flow control, one value under one lock (``ConnectionHandle``): the
/// bytes handed to its loop and not yet written (its session's backpressure), the
/// messages handed to its session and not yet handled (whether the loop reads the
/// socket), and the one drain signal a held-back producer may wait for. Each change is
/// one step under the lock that says what to do next; what it returns to call is
/// called after the lock is let go.
struct FlowControl {
    /// Payload bytes posted and not yet written to the socket.
    private(set) var unsentBytes = 0
    /// Messages handed to the session and not yet handled.
    private(set) var queuedMessages = 0
    /// Whether the loop stopped reading the socket because the session is behind.
    private(set) var readingPaused = false
    /// Whether a producer held back and waits for the drain signal.
    private var wantsDrainSignal = false
    /// What the drain signal calls.
    var drainHandler: (@Sendable () -> Void)?

    /// `bytes` more are waiting for the socket; returns how many wait now.
    mutating func queue(bytes: Int) -> Int {
        unsentBytes += bytes
        return unsentBytes
    }

    /// `bytes` left the queue: written, or dropped with the socket.
    mutating func dequeue(bytes: Int) {
        unsentBytes -= bytes
    }

    /// A producer held back asks for one signal once nothing waits: returns what to call
    /// at once when nothing does already.
    mutating func requestDrainSignal() -> (@Sendable () -> Void)? {
        wantsDrainSignal = true
        return unsentBytes == 0 ? takeDrainSignal() : nil
    }

    /// The queue emptied: returns what to call, once per request.
    mutating func takeDrainSignal() -> (@Sendable () -> Void)? {
        guard wantsDrainSignal else { return nil }
        wantsDrainSignal = false
        return drainHandler
    }

    /// A message was handed to the session: returns how many wait now, and whether the
    /// loop must stop reading (`limit` of them wait, and it has not stopped already).
    mutating func handOver(limit: Int) -> (queued: Int, pause: Bool) {
        queuedMessages += 1
        let pause = queuedMessages >= limit && !readingPaused
        if pause { readingPaused = true }
        return (queuedMessages, pause)
    }

    /// The session handled a message: returns whether the loop must read again (it had
    /// stopped, and at most half of `limit` wait now).
    mutating func handled(limit: Int) -> Bool {
        queuedMessages -= 1
        guard readingPaused, queuedMessages <= limit / 2 else { return false }
        readingPaused = false
        return true
    }
}
