import CLibWebSockets
import DequeModule

#if canImport(Glibc)
    import Glibc
#endif

/// One client WebSocket connection, confined to its ``WebSocketClientLoop``'s thread
/// (not `Sendable`). What happens to it goes to its delegate.
///
/// Make it, then ``connect(host:port:path:origin:subprotocol:)``:
/// the delegate may hear ``WebSocketClientDelegate/ended(_:error:)`` before `connect`
/// returns, so whatever it looks up must already be in place.
///
/// Frames go out in two ways: ``send(_:isBinary:)`` queues a copy, written in order
/// when the socket can take it; a sender that builds each message at the last moment
/// calls ``requestWritable()`` and writes in ``WebSocketClientDelegate/writable(_:)``
/// with ``write(_:isBinary:)``. Either way the libwebsockets headroom is handled here.
/// Asking for something before the connection opens (sending, closing, pausing)
/// takes effect once it does.
///
/// Its mutable state skips Swift's dynamic exclusivity checks
/// (`@exclusivity(unchecked)`), which cost more than the rest of the per-message path:
/// it is touched on one thread only, and no access to a property spans a call that
/// could reach that property again (the delegate is called between accesses, never
/// inside one).
package final class WebSocketClientConnection {
    /// The loop the connection belongs to.
    let loop: WebSocketClientLoop
    /// Hears what happens to the connection. Held until the connection ends, then let
    /// go, so a delegate that holds its connections makes no lasting cycle. (Strong, not
    /// weak: a weakly referenced object pays for every retain and release, which the
    /// load generator would feel on each message.)
    @exclusivity(unchecked) private var delegate: (any WebSocketClientDelegate)?
    /// A number the owner chose, to find its own record of the connection (the load
    /// generator's table index).
    package let tag: Int
    /// Whether the handshake finished and the connection has not ended.
    @exclusivity(unchecked) private var isOpen = false
    /// Whether the connection has ended (its delegate heard `ended`).
    @exclusivity(unchecked) private var isEnded = false

    /// The connection's wsi, from `connect` until it ends.
    @exclusivity(unchecked) private var wsi: OpaquePointer?
    @exclusivity(unchecked) private var connectCalled = false
    /// The `Cookie` header sent with the handshake, if any.
    @exclusivity(unchecked) private var cookie: String?
    /// While `lws_client_connect_via_info` runs: its failure is reported once it returns.
    @exclusivity(unchecked) private var insideConnect = false
    /// Set in LWS_CALLBACK_WSI_DESTROY, just before the connection's release.
    @exclusivity(unchecked) private var destroyedByLibrary = false
    @exclusivity(unchecked) private var outbound = Deque<OutboundFrame>()
    /// The delegate asked to hear ``WebSocketClientDelegate/writable(_:)``.
    @exclusivity(unchecked) private var writableRequested = false
    /// Inside ``WebSocketClientDelegate/writable(_:)``, and whether it wrote.
    @exclusivity(unchecked) private var insideWritable = false
    @exclusivity(unchecked) private var wroteInWritable = false
    @exclusivity(unchecked) private var closeRequest: (code: UInt16, reason: [UInt8])?
    @exclusivity(unchecked) private var readingPaused = false
    /// Bytes of a message that arrived in more than one piece.
    @exclusivity(unchecked) private var partial: [UInt8] = []
    /// Why the connection is failing, reported when it ends.
    @exclusivity(unchecked) private var failure: WebSocketClientError?

    /// A connection on `loop` reporting to `delegate`, known to it as `tag`; on the
    /// loop's thread.
    package init(on loop: WebSocketClientLoop, tag: Int = 0, delegate: any WebSocketClientDelegate) {
        loop.preconditionInLoop()
        self.loop = loop
        self.tag = tag
        self.delegate = delegate
    }

    /// Starts connecting to `host`:`port` and asks for `path` with the `Origin` header
    /// `origin` sent as given (none when nil), the subprotocol `subprotocol` (none
    /// when nil) and the `Cookie` header `cookie` (none when nil). Call once.
    package func connect(
        host: String, port: Int, path: String, origin: String? = nil, subprotocol: String? = nil, cookie: String? = nil
    ) {
        loop.preconditionInLoop()
        precondition(!connectCalled, "a WebSocketClientConnection connects once")
        connectCalled = true
        self.cookie = cookie
        guard let context = loop.context else {
            return end(error: WebSocketClientError.connectNotStarted.with(detail: "the client loop has stopped"))
        }
        let strings = [host, path, "\(host):\(port)", origin, subprotocol, WebSocketClientLoop.protocolName].map {
            $0.map { strdup($0)! }
        }
        defer { for string in strings { free(string) } }
        var info = lws_client_connect_info()
        info.context = context
        info.port = Int32(port)
        info.address = UnsafePointer(strings[0])
        info.path = UnsafePointer(strings[1])
        info.host = UnsafePointer(strings[2])
        info.origin = UnsafePointer(strings[3])
        info.protocol = UnsafePointer(strings[4])
        info.local_protocol_name = UnsafePointer(strings[5])
        info.ietf_version_or_minus_one = -1
        // No libwebsockets liveness checks (see ContextResources): a client's peer is a
        // test server or a benchmark's, and each check costs a walk over all connections.
        info.retry_and_idle_policy = loop.retryPolicy
        // Retained until LWS_CALLBACK_WSI_DESTROY.
        let retained = Unmanaged.passRetained(self)
        info.userdata = retained.toOpaque()
        insideConnect = true
        let made = lws_client_connect_via_info(&info)
        insideConnect = false
        guard let made else {
            // libwebsockets either closed the wsi it had made (WSI_DESTROY ran and
            // released) or freed it with no callback at all (nothing released yet).
            if !destroyedByLibrary { retained.release() }
            return end(error: .connectNotStarted)
        }
        if !isEnded { wsi = made }
    }

    // MARK: Sending

    /// Queues `payload` as one text (or binary) message, written after those queued
    /// before it. Ignored once the connection has ended or a close was asked for.
    package func send(_ payload: some Collection<UInt8>, isBinary: Bool = false) {
        loop.preconditionInLoop()
        guard !isEnded, closeRequest == nil else { return }
        var frame = OutboundFrame(payload: payload)
        frame.isBinary = isBinary
        outbound.append(frame)
        if isOpen, let wsi { lws_callback_on_writable(wsi) }
    }

    /// Asks for one ``WebSocketClientDelegate/writable(_:)`` call once the socket can
    /// take a frame and the send queue is empty.
    package func requestWritable() {
        loop.preconditionInLoop()
        guard !isEnded else { return }
        writableRequested = true
        if isOpen, let wsi { lws_callback_on_writable(wsi) }
    }

    /// Writes one message now; only inside ``WebSocketClientDelegate/writable(_:)``, at
    /// most once per call. The payload is copied behind libwebsockets' headroom into a
    /// buffer the loop reuses. Returns false when the socket did not take it all; the
    /// connection then closes and ends with ``WebSocketClientError/shortWrite``.
    @discardableResult
    package func write(_ payload: UnsafeRawBufferPointer, isBinary: Bool = false) -> Bool {
        loop.preconditionInLoop()
        precondition(insideWritable && !wroteInWritable, "write(_:isBinary:) once per writable(_:) call")
        wroteInWritable = true
        guard let wsi else { return false }
        let buffer = loop.framePayload(count: payload.count)
        if let base = payload.baseAddress { buffer.copyMemory(from: base, byteCount: payload.count) }
        return write(buffer, count: payload.count, isBinary: isBinary, on: wsi)
    }

    // MARK: Ending

    /// Closes with a close frame carrying `code` and `reason` (at most 123 bytes), once
    /// the queued messages (and whatever ``WebSocketClientDelegate/writable(_:)`` still
    /// writes) are out.
    package func close(code: UInt16 = 1000, reason: String = "") {
        loop.preconditionInLoop()
        guard !isEnded, closeRequest == nil else { return }
        closeRequest = (code, Array(reason.utf8.prefix(123)))
        if isOpen, let wsi { lws_callback_on_writable(wsi) }
    }

    /// Kills the TCP connection with no close frame, as a network failure would (a
    /// connection still opening is abandoned).
    package func drop() {
        loop.preconditionInLoop()
        guard !isEnded, let wsi else { return }
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }

    // MARK: Reading

    /// Stops reading from the socket (a slow reader), so the server's writes back up.
    /// Also pins the socket's receive buffer at 64 KiB: Linux grows it up to
    /// `tcp_rmem`'s maximum (32 MiB here), which would hide a slow reader from the
    /// server entirely.
    package func pauseReading() {
        loop.preconditionInLoop()
        readingPaused = true
        applyReading()
    }

    /// Reads again after ``pauseReading()``.
    package func resumeReading() {
        loop.preconditionInLoop()
        readingPaused = false
        applyReading()
    }

    private func applyReading() {
        guard isOpen, let wsi else { return }
        if readingPaused {
            var size: Int32 = 64 << 10
            _ = setsockopt(lws_get_socket_fd(wsi), SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        lws_rx_flow_control(wsi, readingPaused ? 0 : 1)
    }

    // MARK: Callbacks (from webSocketClientCallback)

    func established(_ wsi: OpaquePointer) {
        self.wsi = wsi
        isOpen = true
        if readingPaused { applyReading() }
        delegate?.opened(self)
        if isOpen, !outbound.isEmpty || writableRequested || closeRequest != nil { lws_callback_on_writable(wsi) }
    }

    func received(_ input: UnsafeMutableRawPointer?, count: Int, wsi: OpaquePointer) {
        let bytes = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : count)
        let whole = lws_is_final_fragment(wsi) != 0 && lws_remaining_packet_payload(wsi) == 0
        if whole && partial.isEmpty {
            delegate?.received(bytes, isBinary: lws_frame_is_binary(wsi) != 0, on: self)
            return
        }
        partial.append(contentsOf: bytes)
        guard whole else { return }
        let message = partial
        partial = []
        message.withUnsafeBytes { delegate?.received($0, isBinary: lws_frame_is_binary(wsi) != 0, on: self) }
    }

    /// Writes the next queued frame, lets the delegate write, or closes. Returns -1
    /// to tell libwebsockets to close the connection.
    func writeable(_ wsi: OpaquePointer) -> Int32 {
        if var frame = outbound.popFirst() {
            let count = frame.count
            let written = frame.storage.withUnsafeMutableBytes { buffer in
                write(buffer.baseAddress! + OutboundFrame.headroom, count: count, isBinary: frame.isBinary, on: wsi)
            }
            guard written else { return -1 }
            if !outbound.isEmpty || writableRequested || closeRequest != nil { lws_callback_on_writable(wsi) }
            return 0
        }
        if writableRequested {
            writableRequested = false
            insideWritable = true
            wroteInWritable = false
            delegate?.writable(self)
            insideWritable = false
            if failure != nil { return -1 }
            if wroteInWritable {
                if closeRequest != nil, !writableRequested { lws_callback_on_writable(wsi) }
                return 0
            }
        }
        if let (code, reason) = closeRequest {
            var reason = reason
            lws_close_reason(wsi, lws_close_status(UInt32(code)), &reason, reason.count)
            return -1
        }
        return 0
    }

    func peerClosed(_ input: UnsafeMutableRawPointer?, count: Int) {
        var code: UInt16 = 1005  // no status received
        var reason = ""
        if let bytes = input?.assumingMemoryBound(to: UInt8.self), count >= 2 {
            code = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
            reason = String(decoding: UnsafeBufferPointer(start: bytes + 2, count: count - 2), as: UTF8.self)
        }
        delegate?.peerClosed(code: code, reason: reason, on: self)
    }

    /// LWS_CALLBACK_CLIENT_CONNECTION_ERROR: `input` is libwebsockets' reason.
    func connectionFailed(_ input: UnsafeMutableRawPointer?, count: Int) {
        let text = input.map {
            String(decoding: UnsafeRawBufferPointer(start: $0, count: count).prefix { $0 != 0 }, as: UTF8.self)
        }
        end(error: text.map { WebSocketClientError.connectionFailed.with(detail: $0) } ?? .connectionFailed)
    }

    /// LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER: `input` points at the cursor into
    /// the handshake being written, `count` bytes of room after it. Nonzero fails the
    /// connection (a cookie that does not fit).
    func appendHeaders(_ input: UnsafeMutableRawPointer?, count: Int, wsi: OpaquePointer) -> Int32 {
        guard let cookie, let input else { return 0 }
        let cursor = input.assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
        guard let start = cursor.pointee else { return -1 }
        var value = Array(cookie.utf8)
        return lws_add_http_header_by_name(wsi, "cookie:", &value, Int32(value.count), cursor, start + count) == 0
            ? 0 : -1
    }

    /// LWS_CALLBACK_CLIENT_CLOSED.
    func closed() {
        end(error: nil)
    }

    /// LWS_CALLBACK_WSI_DESTROY, the wsi's last callback, just before the release
    /// that balances the retain taken in `connect`.
    func destroyed() {
        destroyedByLibrary = true
        // A failure inside `connect` is reported once it returns.
        if !insideConnect { end(error: nil) }
    }

    // MARK: Plumbing

    /// Writes `count` bytes at `payload`, which has headroom in front of it.
    private func write(_ payload: UnsafeMutableRawPointer, count: Int, isBinary: Bool, on wsi: OpaquePointer) -> Bool {
        let written = lws_write(
            wsi, payload.assumingMemoryBound(to: UInt8.self), count, isBinary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT)
        guard written < count else { return true }
        failure =
            failure ?? WebSocketClientError.shortWrite.with(detail: "lws_write wrote \(written) of \(count) bytes")
        return false
    }

    /// Reports the end once (the first of closed, failed or destroyed), and lets the
    /// delegate go.
    private func end(error: WebSocketClientError?) {
        guard !isEnded else { return }
        isEnded = true
        isOpen = false
        wsi = nil
        outbound.removeAll()
        partial = []
        let delegate = self.delegate
        self.delegate = nil
        delegate?.ended(self, error: error ?? failure)
    }
}
