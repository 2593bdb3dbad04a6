import CLibWebSockets
import Footlight
import FootlightServer

/// The libwebsockets client context all test clients of a process share, with its
/// service thread.
enum ClientLoop {
    static let protocolName = "footlight-test-client"

    /// The shared loop, created on first use.
    static var shared: ServiceLoop {
        get throws(ServerError) {
            try holder.withLock { loop throws(ServerError) in
                if let loop { return loop }
                let made = try makeLoop()
                loop = made
                return made
            }
        }
    }

    private static let holder = Locked<ServiceLoop?>(nil)

    private static func makeLoop() throws(ServerError) -> ServiceLoop {
        System.raiseOpenFileLimit()
        let resources = ContextResources(
            protocols: [.init(name: protocolName, callback: clientCallback, perSessionDataSize: 0, rxBufferSize: 4096)],
            pingAfter: 300, hangUpAfter: 310)
        nonisolated(unsafe) let pinned = resources
        let loop = try ServiceLoop(name: "footlight-test-client") { user in
            var info = lws_context_creation_info()
            info.port = footlight_lws_port_no_listen()
            info.protocols = UnsafePointer(pinned.protocols)
            info.user = user
            // Send the Origin header exactly as given (lws would otherwise prefix "http://").
            info.options = UInt64(LWS_SERVER_OPTION_JUST_USE_RAW_ORIGIN) | UInt64(LWS_SERVER_OPTION_DISABLE_IPV6)
            return lws_create_context(&info)
        }
        loop.keepAlive(resources)
        return loop
    }
}

/// The client protocol's callback: moves bytes between libwebsockets and the
/// ``ClientSocket`` named by the connection's user pointer.
private func clientCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    if reason == LWS_CALLBACK_EVENT_WAIT_CANCELLED {
        ServiceLoop.from(wsi: wsi)?.drainMailbox()
        return 0
    }
    guard let wsi, let user else { return 0 }
    let socket = Unmanaged<ClientSocket>.fromOpaque(user).takeUnretainedValue()
    switch reason {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        socket.established(wsi)
    case LWS_CALLBACK_CLIENT_RECEIVE:
        socket.receive(input, length, wsi: wsi)
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        return socket.writeable(wsi)
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        if let input, length >= 2 {
            let bytes = input.assumingMemoryBound(to: UInt8.self)
            let code = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
            let reason = String(decoding: UnsafeBufferPointer(start: bytes + 2, count: length - 2), as: UTF8.self)
            socket.peerClosing(code: code, reason: reason)
        }
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        let text = input.map {
            String(decoding: UnsafeRawBufferPointer(start: $0, count: length).prefix { $0 != 0 }, as: UTF8.self)
        }
        socket.ended(error: text ?? "connection failed")
    case LWS_CALLBACK_CLIENT_CLOSED:
        socket.ended(error: nil)
    case LWS_CALLBACK_WSI_DESTROY:
        // The last callback for this wsi: balances the retain taken at connect.
        socket.ended(error: nil)
        socket.destroyedByLibrary = true
        Unmanaged<ClientSocket>.fromOpaque(user).release()
    default:
        break
    }
    return 0
}
