import CLibWebSockets
import DequeModule
import FootlightJSON
import FootlightServer

#if canImport(Glibc)
    import Glibc
#endif

/// One WebSocket connection of a ``TestClient``. Its wsi and queues are confined to
/// the client loop's thread; what it learns goes to its owner.
final class ClientSocket {
    let loop: ServiceLoop
    private weak var owner: TestClient?
    private var wsi: OpaquePointer?
    private var outbound = Deque<OutboundFrame>()
    private var inbound: [UInt8] = []
    private var isEnded = false
    private var closeRequested = false
    private var readingPaused = false
    /// Set in LWS_CALLBACK_WSI_DESTROY, just before its release.
    var destroyedByLibrary = false

    init(loop: ServiceLoop, owner: TestClient) {
        self.loop = loop
        self.owner = owner
    }

    /// Starts connecting; on the loop thread.
    func connect(port: Int, host: String, path: String, origin: String?, subprotocol: String?) {
        loop.assertInLoop()
        var info = lws_client_connect_info()
        info.context = loop.context
        info.port = Int32(port)
        let texts: [String] = [host, path, "\(host):\(port)", origin ?? "", subprotocol ?? "", ClientLoop.protocolName]
        let strings = texts.map {
            strdup($0)!
        }
        defer { for string in strings { free(string) } }
        info.address = UnsafePointer(strings[0])
        info.path = UnsafePointer(strings[1])
        info.host = UnsafePointer(strings[2])
        info.origin = origin == nil ? nil : UnsafePointer(strings[3])
        info.protocol = subprotocol == nil ? nil : UnsafePointer(strings[4])
        info.local_protocol_name = UnsafePointer(strings[5])
        info.ietf_version_or_minus_one = -1
        // Retained until LWS_CALLBACK_WSI_DESTROY.
        let user = Unmanaged.passRetained(self)
        info.userdata = user.toOpaque()
        if lws_client_connect_via_info(&info) == nil {
            // Some failures already ran WSI_DESTROY (which released); others did not.
            if !destroyedByLibrary { user.release() }
            ended(error: "lws_client_connect_via_info failed")
        }
    }

    func established(_ wsi: OpaquePointer) {
        self.wsi = wsi
        owner?.socketOpened(self)
        if !outbound.isEmpty || closeRequested { lws_callback_on_writable(wsi) }
    }

    func send(_ frames: [OutboundFrame]) {
        loop.assertInLoop()
        guard !isEnded else { return }
        outbound.append(contentsOf: frames)
        if let wsi { lws_callback_on_writable(wsi) }
    }

    func receive(_ input: UnsafeMutableRawPointer?, _ length: Int, wsi: OpaquePointer) {
        if let input { inbound.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length)) }
        guard lws_is_final_fragment(wsi) != 0 else { return }
        let message = inbound
        inbound.removeAll(keepingCapacity: true)
        owner?.socketReceived(message, from: self)
    }

    func writeable(_ wsi: OpaquePointer) -> Int32 {
        if var frame = outbound.popFirst() {
            let count = frame.count
            let written = frame.storage.withUnsafeMutableBufferPointer {
                lws_write(wsi, $0.baseAddress! + OutboundFrame.headroom, count, LWS_WRITE_TEXT)
            }
            if written < count { return -1 }
            if !outbound.isEmpty || closeRequested { lws_callback_on_writable(wsi) }
            return 0
        }
        if closeRequested {
            var reason = Array("test client closing".utf8)
            lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, &reason, reason.count)
            return -1
        }
        return 0
    }

    func peerClosing(code: UInt16, reason: String) {
        owner?.socketPeerClosed(self, code: code, reason: reason)
    }

    func ended(error: String?) {
        guard !isEnded else { return }
        isEnded = true
        wsi = nil
        outbound.removeAll()
        owner?.socketEnded(self, error: error)
    }

    /// Closes with a close frame (1000), after the queued frames.
    func close() {
        loop.assertInLoop()
        closeRequested = true
        if let wsi { lws_callback_on_writable(wsi) }
    }

    /// Drops the TCP connection with no close frame, as a network failure would.
    func drop() {
        loop.assertInLoop()
        guard let wsi else { return }
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, -1)  // LWS_TO_KILL_ASYNC
    }

    /// Stops or resumes reading from the socket (a slow reader). Pausing also pins the
    /// socket's receive buffer at 64 KiB: Linux grows it up to `tcp_rmem`'s maximum
    /// (32 MiB here), which would hide a slow reader from the server entirely.
    func setReading(_ enabled: Bool) {
        loop.assertInLoop()
        readingPaused = !enabled
        guard let wsi else { return }
        if !enabled {
            var size: Int32 = 64 << 10
            _ = setsockopt(lws_get_socket_fd(wsi), SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        lws_rx_flow_control(wsi, enabled ? 1 : 0)
    }
}
