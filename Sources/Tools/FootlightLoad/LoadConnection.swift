import FootlightServer

/// Which server endpoint a connection talks to.
enum Endpoint: CustomStringConvertible {
    /// The Footlight protocol (subprotocol `footlight.v1`): a session of the counter demo.
    case footlight
    /// The server's echo endpoint (subprotocol `footlight.echo`): the transport floor.
    case echo

    var description: String { self == .footlight ? "footlight" : "echo" }
}

/// One client connection as the generator tracks it: where it is in its life, the
/// event it has outstanding, and what it still has to write. Kept in the generator's
/// table and named by its index there (its socket's ``WebSocketClientConnection/tag``).
struct LoadConnection {
    enum Phase {
        /// Connecting, or (echo) before the handshake finished.
        case connecting
        /// Footlight: open, `join` sent, waiting for `joined` and the mount.
        case joining
        /// Joined and mounted (echo: open); takes part in closed loops.
        case ready
        /// Asked to close; waiting for libwebsockets to let go.
        case closing
        /// Closed (by us, or unexpectedly, see ``LoadGenerator/unexpectedCloses``).
        case closed
        /// Never opened.
        case failed
    }

    let endpoint: Endpoint
    let socket: WebSocketClientConnection
    var phase = Phase.connecting

    /// The number of the last event written (1, 2, 3 … per session).
    var lastEvent: Int64 = 0
    /// When the outstanding event was written (monotonic ns); 0 when none is outstanding.
    var sentAt: UInt64 = 0
    /// Footlight: `joined` arrived.
    var joined = false
    /// The last seq received; the next must be one more.
    var lastSeq: Int64 = 0
    /// Patches received since the last ack was queued.
    var patchesSinceAck = 0

    // What the next writable callbacks must write, most urgent first (a close asked
    // for comes after them all: the socket sees to it).
    var wantsJoin = false
    var wantsEvent = false
    var ackDue: Int64?

    /// The close code and reason the server sent, if it closed first.
    var peerClose: String?

    init(endpoint: Endpoint, socket: WebSocketClientConnection) {
        self.endpoint = endpoint
        self.socket = socket
    }

    var hasPendingWrite: Bool { wantsJoin || wantsEvent || ackDue != nil }
}
