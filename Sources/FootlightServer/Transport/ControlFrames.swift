/// The close handshake and the liveness ping of one connection, as a value: fed what
/// happens (a close asked for, a liveness sweep, the peer heard from, the socket
/// writeable), it says what to write next; ``Connection`` carries that out. It does no
/// I/O and reads no clock, so it is tested with none.
struct ControlFrames {
    /// A close this side asked for: the code and reason of its close frame.
    struct CloseRequest: Equatable {
        let code: UInt16
        let reason: String
    }

    /// What to write when the socket is writeable.
    enum Write: Equatable {
        /// A ping, ahead of the frames queued.
        case ping
        /// The next queued frame.
        case frame
        /// This side's close frame, after every queued frame.
        case close(CloseRequest)
        /// Nothing: wait for the peer's close (or the close timeout).
        case nothing
    }

    /// The close asked for, if any: inbound messages are no longer wanted.
    private(set) var closeRequest: CloseRequest?
    /// Whether this side's close frame is out; the socket then stays open until the
    /// peer's close arrives (or the close timeout passes), so that frames the peer sent
    /// meanwhile are read, not left unread in the kernel where closing would turn into
    /// a reset that destroys the peer's copy of our last frames.
    private(set) var closeFrameSent = false
    /// When the peer was last heard from (a frame or a pong), for the liveness sweep.
    private(set) var lastHeard: ContinuousClock.Instant
    /// When a ping (or a close) was asked for, if the peer has not been heard from
    /// since: it has had its chance to answer from then (if its socket never took the
    /// ping, it is not reading either).
    private(set) var pingAskedAt: ContinuousClock.Instant?
    /// A ping waits for the socket to become writeable.
    private var pingDue = false
    /// A ping went out and the peer has not been heard from since.
    private var pinged = false

    /// A connection opened at `now`.
    init(openedAt now: ContinuousClock.Instant) {
        lastHeard = now
    }

    var isClosing: Bool { closeRequest != nil }

    /// A close is asked for at `now` (the first one's code and reason stand). The socket
    /// must then be asked for a writeable callback.
    mutating func requestClose(_ request: CloseRequest, at now: ContinuousClock.Instant) {
        if closeRequest == nil { closeRequest = request }
        // No ping follows a close: a peer that does not read it is hung up on as if pinged.
        if pingAskedAt == nil { pingAskedAt = now }
    }

    /// The peer sent a frame or a pong at `now`.
    mutating func heard(at now: ContinuousClock.Instant) {
        lastHeard = now
        pinged = false
        // A closing connection gets no ping: its close stands for one.
        pingAskedAt = closeRequest == nil ? nil : now
    }

    /// The liveness sweep found the peer silent at `now`: a ping, unless one went out
    /// since the peer was last heard from, or the connection is closing. Returns whether
    /// the socket must be asked for a writeable callback.
    mutating func pingIfNotPinged(at now: ContinuousClock.Instant) -> Bool {
        guard !pinged, !pingDue, closeRequest == nil else { return false }
        pingDue = true
        pingAskedAt = now
        return true
    }

    /// The socket is writeable, with queued frames or none: what to write.
    mutating func writeable(hasFrames: Bool) -> Write {
        if pingDue && closeRequest == nil {
            pingDue = false
            pinged = true
            return .ping
        }
        if hasFrames { return .frame }
        if let closeRequest, !closeFrameSent { return .close(closeRequest) }
        return .nothing
    }

    /// This side's close frame was written whole.
    mutating func closeFrameWritten() {
        closeFrameSent = true
    }
}
