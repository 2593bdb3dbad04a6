import CLibWebSockets

/// The client protocol's libwebsockets callback. It captures nothing: the
/// ``WebSocketClientConnection`` comes from the wsi's user pointer (retained in
/// `connect`, released here in LWS_CALLBACK_WSI_DESTROY).
func webSocketClientCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    if reason == LWS_CALLBACK_EVENT_WAIT_CANCELLED {
        // Only a wake-up, as on the server: a ServiceLoop runs its mailbox once
        // lws_service returns, outside every callback, so that work handed off to a new
        // owner thread never leaves the old one inside libwebsockets. Must return 0.
        return 0
    }
    guard let wsi, let user else { return 0 }
    let connection = Unmanaged<WebSocketClientConnection>.fromOpaque(user).takeUnretainedValue()
    switch reason {
    case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
        return connection.appendHeaders(input, count: length, wsi: wsi)
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        connection.established(wsi)
    case LWS_CALLBACK_CLIENT_RECEIVE:
        connection.received(input, count: length, wsi: wsi)
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        return connection.writeable(wsi)
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        connection.peerClosed(input, count: length)
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        connection.connectionFailed(input, count: length)
    case LWS_CALLBACK_CLIENT_CLOSED:
        connection.closed()
    case LWS_CALLBACK_WSI_DESTROY:
        connection.destroyed()
        Unmanaged<WebSocketClientConnection>.fromOpaque(user).release()
    default:
        break
    }
    return 0
}
