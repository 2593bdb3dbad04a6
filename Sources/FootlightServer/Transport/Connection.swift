import CLibWebSockets
import DequeModule
import Footlight
import Synchronization

/// Identifies a connection across threads; never reused within a process.
public typealias ConnectionID = UInt64

/// The part of a connection other threads may hold: its id, its loop, and its flow
/// control (the bytes handed to the loop but not yet written, for backpressure).
package final class ConnectionHandle: Sendable {
    package let id: ConnectionID
    package let loop: ServiceLoop
    /// One state under one lock (``FlowControl``).
    private let flow = Locked(FlowControl())

    init(id: ConnectionID, loop: ServiceLoop) {
        self.id = id
        self.loop = loop
    }

    /// Counts bytes as waiting, and keeps the loop's peak up to date.
    func addPending(_ bytes: Int) {
        let now = flow.withLock { $0.queue(bytes: bytes) }
        var peak = loop.peakUnsentBytes.load(ordering: .relaxed)
        while now > peak {
            let (exchanged, original) = loop.peakUnsentBytes.compareExchange(
                expected: peak, desired: now, ordering: .relaxed)
            if exchanged { break }
            peak = original
        }
    }

    /// Counts bytes as no longer waiting (written, or dropped with the socket).
    func removePending(_ bytes: Int) {
        flow.withLock { $0.dequeue(bytes: bytes) }
    }

    /// Bytes queued towards this connection and not yet written.
    package var unsentBytes: Int { flow.withLock { $0.unsentBytes } }

    /// Counts a message handed to the session; returns how many wait, and whether the
    /// loop must stop reading the socket (``FlowControl/handOver(limit:)``).
    func handOver(limit: Int) -> (queued: Int, pause: Bool) {
        flow.withLock { $0.handOver(limit: limit) }
    }

    /// Counts a message the session handled; returns whether the loop must read the
    /// socket again (``FlowControl/handled(limit:)``).
    func handled(limit: Int) -> Bool {
        flow.withLock { $0.handled(limit: limit) }
    }

    /// Queues frames to be written in order. Thread-safe: on the loop's owner thread
    /// they are queued at once, from any other thread through the loop's mailbox.
    func send(_ frames: [OutboundFrame]) {
        guard !frames.isEmpty else { return }
        addPending(frames.reduce(0) { $0 + $1.count })
        let id = self.id
        let loop = self.loop
        if loop.inLoop {
            loop.connection(id)?.enqueue(frames)
        } else {
            loop.execute { loop.connection(id)?.enqueue(frames) }
        }
    }

    /// Queues encoded messages, each as one text frame, to be written in order.
    package func send(_ messages: [WireMessage]) {
        send(messages.map(OutboundFrame.init))
    }

    /// Closes the connection with a WebSocket close code and reason, after the frames
    /// already queued. Thread-safe.
    package func close(code: UInt16, reason: String) {
        let id = self.id
        let loop = self.loop
        if loop.inLoop {
            loop.connection(id)?.requestClose(code: code, reason: reason)
        } else {
            loop.execute { loop.connection(id)?.requestClose(code: code, reason: reason) }
        }
    }

    /// Sets what to call when a held-back producer may send again.
    package func setDrainHandler(_ handler: (@Sendable () -> Void)?) {
        flow.withLock { $0.drainHandler = handler }
    }

    /// Asks for one drain signal once the unsent bytes reach zero (at once when they are).
    package func requestDrainSignal() {
        flow.withLock { $0.requestDrainSignal() }?()
    }

    /// The loop wrote the last queued frame: gives the drain signal, if one was asked for.
    func signalDrainedIfRequested() {
        flow.withLock { $0.takeDrainSignal() }?()
    }
}

/// A WebSocket connection as its loop sees it: the wsi, the message being
/// reassembled, and the frames waiting for the socket to become writeable.
///
/// Confined to its loop's thread; other threads use the ``ConnectionHandle``.
final class Connection {
    /// Which endpoint the connection came in on.
    enum Kind {
        /// The Footlight protocol: a session.
        case session
        /// The test-only echo endpoint (the transport floor in benchmarks, Autobahn).
        case echo
    }

    let handle: ConnectionHandle
    let wsi: OpaquePointer
    let kind: Kind
    /// Bytes of the message being received, across fragments.
    var inbound: [UInt8] = []
    /// Whether the message being received is binary.
    var inboundIsBinary = false
    private var outbound = Deque<OutboundFrame>()
    /// The close handshake and the liveness ping, as a value (``ControlFrames``).
    private var control = ControlFrames(openedAt: .now)
    /// Whether this side's close frame is out (``ControlFrames/closeFrameSent``).
    var closeFrameSent: Bool { control.closeFrameSent }
    /// Whether a close was asked for: inbound messages are no longer wanted.
    var isClosing: Bool { control.isClosing }
    /// How long to wait for the peer's close after sending ours.
    static let closeAckTimeoutSeconds: Int32 = 3
    /// What the server attached (its session link); opaque to the transport.
    var attachment: AnyObject?
    /// The upgrade request's cookies, headers and client address.
    let request: ConnectionRequest
    /// When the peer was last heard from (a frame or a pong), for the liveness sweep.
    var lastHeard: ContinuousClock.Instant { control.lastHeard }
    /// When a ping (or a close) was asked for, if the peer has not been heard from since
    /// (``ControlFrames/pingAskedAt``).
    var pingAskedAt: ContinuousClock.Instant? { control.pingAskedAt }

    init(handle: ConnectionHandle, wsi: OpaquePointer, kind: Kind, request: ConnectionRequest = ConnectionRequest()) {
        self.handle = handle
        self.wsi = wsi
        self.kind = kind
        self.request = request
    }

    var id: ConnectionID { handle.id }

    func enqueue(_ frames: [OutboundFrame]) {
        handle.loop.preconditionInLoop()
        guard !control.isClosing else {
            handle.removePending(frames.reduce(0) { $0 + $1.count })
            return
        }
        outbound.append(contentsOf: frames)
        lws_callback_on_writable(wsi)
    }

    func requestClose(code: UInt16, reason: String) {
        handle.loop.preconditionInLoop()
        control.requestClose(ControlFrames.CloseRequest(code: code, reason: reason), at: .now)
        lws_callback_on_writable(wsi)
    }

    /// Writes one frame, or carries out a requested close. Returns -1 to tell
    /// libwebsockets to close the connection.
    func writeable() -> Int32 {
        handle.loop.preconditionInLoop()
        switch control.writeable(hasFrames: !outbound.isEmpty) {
        case .ping:
            // A payload: libwebsockets 4.1.6 makes no RECEIVE_PONG callback for an empty pong.
            var frame = [UInt8](repeating: 0, count: OutboundFrame.headroom) + Array("alive?".utf8)
            let length = frame.count - OutboundFrame.headroom
            let written = frame.withUnsafeMutableBufferPointer { buffer in
                lws_write(wsi, buffer.baseAddress! + OutboundFrame.headroom, length, LWS_WRITE_PING)
            }
            if written < 0 { return -1 }
            if !outbound.isEmpty { lws_callback_on_writable(wsi) }
            return 0
        case .frame:
            var frame = outbound.removeFirst()
            let count = frame.count
            let written = frame.storage.withUnsafeMutableBufferPointer { buffer in
                lws_write(
                    wsi, buffer.baseAddress! + OutboundFrame.headroom, count,
                    frame.isBinary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT)
            }
            handle.removePending(count)
            if written < count { return -1 }
            handle.loop.sentMessages.add(1, ordering: .relaxed)
            handle.loop.lastSentNanoseconds.store(System.monotonicNanoseconds, ordering: .relaxed)
            if !outbound.isEmpty || control.isClosing {
                lws_callback_on_writable(wsi)
            } else {
                handle.signalDrainedIfRequested()
            }
            return 0
        case .close(let close):
            // The close handshake by hand: libwebsockets 4.1.6, told to close with a
            // reason, sends the close frame and closes the socket at once. Unread data
            // from the peer (events sent before it saw our close) then makes the kernel
            // reset the connection, and the peer loses our last frames (`bye`, 1001).
            var frame = [UInt8](repeating: 0, count: OutboundFrame.headroom)
            frame += [UInt8(close.code >> 8), UInt8(close.code & 0xFF)] + Array(close.reason.utf8.prefix(123))
            let length = frame.count - OutboundFrame.headroom
            let written = frame.withUnsafeMutableBufferPointer { buffer in
                lws_write(wsi, buffer.baseAddress! + OutboundFrame.headroom, length, footlight_lws_write_close())
            }
            if written < length { return -1 }
            control.closeFrameWritten()
            lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_ACK, Self.closeAckTimeoutSeconds)
            return 0
        case .nothing:
            return 0
        }
    }

    // MARK: Liveness (ServiceLoop+Liveness)

    /// The peer sent a frame or a pong.
    func heard() {
        control.heard(at: .now)
    }

    /// Sends a ping ahead of queued frames, unless one went out since the peer was last
    /// heard from.
    func pingIfNotPinged() {
        handle.loop.preconditionInLoop()
        if control.pingIfNotPinged(at: .now) { lws_callback_on_writable(wsi) }
    }

    /// Closes the socket without a close handshake (the peer is not answering), on the
    /// next service pass; the connection then closes as any other.
    func hangUp() {
        handle.loop.preconditionInLoop()
        lws_set_timeout(wsi, PENDING_TIMEOUT_WS_PONG_CHECK_GET_PONG, footlight_lws_kill_async())
    }

    /// Stops reading from the socket (the session is behind); on the loop thread.
    func pauseReading() {
        handle.loop.preconditionInLoop()
        lws_rx_flow_control(wsi, 0)
    }

    /// Reads from the socket again.
    func resumeReading() {
        handle.loop.preconditionInLoop()
        lws_rx_flow_control(wsi, 1)
    }

    /// Forgets queued frames when the socket is gone.
    func discardOutbound() {
        let bytes = outbound.reduce(0) { $0 + $1.count }
        outbound.removeAll()
        handle.removePending(bytes)
    }
}
