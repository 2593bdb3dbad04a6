import CLibWebSockets
import Synchronization

// The libwebsockets callbacks of a Footlight server context. They only move bytes
// and carry out decisions; what to decide lives in the loop's delegate.

/// protocols[0]: HTTP (static files, upgrade checks) and the loop's mailbox. A
/// WebSocket handshake that offers no subprotocol stays bound here; the upgrade check
/// lets that through only on the echo path, so its WebSocket events go to the echo.
func footlightHTTPCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    switch reason {
    case LWS_CALLBACK_ESTABLISHED, LWS_CALLBACK_RECEIVE, LWS_CALLBACK_RECEIVE_PONG, LWS_CALLBACK_SERVER_WRITEABLE,
        LWS_CALLBACK_CLOSED, LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        return socketCallback(wsi, reason, user, input, length, kind: .echo)
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        // Only a wake-up: the loop runs its mailbox once lws_service returns, outside
        // every callback (app work must never run inside libwebsockets). Must return 0.
        return 0
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        guard let wsi, let loop = ServiceLoop.from(wsi: wsi), let delegate = loop.delegate else { return -1 }
        let request = UpgradeRequest(
            path: requestHeader(wsi, WSI_TOKEN_GET_URI) ?? "",
            origin: requestHeader(wsi, WSI_TOKEN_ORIGIN),
            host: requestHeader(wsi, WSI_TOKEN_HOST),
            subprotocols: requestHeader(wsi, WSI_TOKEN_PROTOCOL), key: requestHeader(wsi, WSI_TOKEN_KEY),
            version: requestHeader(wsi, WSI_TOKEN_VERSION))
        switch delegate.confirmUpgrade(request) {
        case .accept:
            return 0
        case .refuse(let status, let reason):
            lws_return_http_status(wsi, status, reason)
            return 1
        }
    case LWS_CALLBACK_WSI_DESTROY:
        if let wsi { ServiceLoop.from(wsi: wsi)?.destroyed(wsi) }
        return 0
    case LWS_CALLBACK_HTTP:
        guard let wsi, let loop = ServiceLoop.from(wsi: wsi), let delegate = loop.delegate else { return -1 }
        if let router = delegate.router, let routed = routeHTTP(wsi, loop: loop, router: router, path: input) {
            return routed
        }
        let request = HTTPRequest(
            path: input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/",
            acceptsGzip: acceptsGzip(requestHeader(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING) ?? ""),
            cookie: requestHeader(wsi, WSI_TOKEN_HTTP_COOKIE),
            readsOnly: lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0
                || lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0,
            isPut: lws_hdr_total_length(wsi, WSI_TOKEN_PUT_URI) > 0,
            contentLength: requestHeader(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH, limit: 20).flatMap { Int($0) },
            isHead: lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0,
            query: requestHeader(wsi, WSI_TOKEN_HTTP_URI_ARGS), connection: connectionRequest(wsi))
        return send(delegate.answerHTTP(request), on: wsi, loop: loop)
    case LWS_CALLBACK_HTTP_BODY:
        if let exchange = routeExchange(wsi) {
            exchange.received(UnsafeRawBufferPointer(start: input, count: length))
            return 0
        }
        guard let wsi, let loop = ServiceLoop.from(wsi: wsi), let sink = loop.requestBodies[wsi] else {
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
        guard let refusal = sink.write(UnsafeRawBufferPointer(start: input, count: length)) else { return 0 }
        loop.requestBodies[wsi] = nil
        // The rest of the body is not read: the connection closes after the status.
        lws_return_http_status(wsi, refusal.status, refusal.reason)
        return -1
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        if let exchange = routeExchange(wsi) {
            exchange.start()
            return 0
        }
        guard let wsi, let loop = ServiceLoop.from(wsi: wsi), let sink = loop.requestBodies.removeValue(forKey: wsi)
        else { return lws_callback_http_dummy(wsi, reason, user, input, length) }
        if let refusal = sink.finish() {
            lws_return_http_status(wsi, refusal.status, refusal.reason)
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        }
        return sendEmpty(status: 204, on: wsi)
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return routeExchange(wsi)?.writeable() ?? lws_callback_http_dummy(wsi, reason, user, input, length)
    case LWS_CALLBACK_CLOSED_HTTP:
        routeExchange(wsi)?.close()
        if let wsi { ServiceLoop.from(wsi: wsi)?.requestBodies.removeValue(forKey: wsi)?.interrupt() }
        return 0
    default:
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
}

/// Sends an HTTP answer; returns what the HTTP callback returns (-1 closes the socket).
private func send(_ answer: HTTPAnswer, on wsi: OpaquePointer, loop: ServiceLoop) -> Int32 {
    switch answer {
    case .status(let status, let message):
        lws_return_http_status(wsi, status, message)
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    case .refuse(let refusal):
        // The body is not read: the connection closes after the status.
        lws_return_http_status(wsi, refusal.status, refusal.reason)
        return -1
    case .receive(let sink):
        // The body comes in LWS_CALLBACK_HTTP_BODY; the answer after its completion.
        loop.requestBodies[wsi] = sink
        return 0
    case .methodNotAllowed:
        // A body sent with the request is read and dropped by libwebsockets after this.
        return sendEmpty(status: 405, allow: "GET, HEAD", on: wsi)
    case .file(let file, let contentType, let cacheControl, let contentEncoding, let varies, let setCookie):
        var headers = [UInt8](repeating: 0, count: 512)
        let length = headers.withUnsafeMutableBufferPointer { buffer -> Int in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            let end = buffer.baseAddress! + buffer.count
            addHeader(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL, cacheControl, &cursor, end)
            addHeader(wsi, name: "x-content-type-options:", "nosniff", &cursor, end)
            if let contentEncoding { addHeader(wsi, WSI_TOKEN_HTTP_CONTENT_ENCODING, contentEncoding, &cursor, end) }
            if varies { addHeader(wsi, WSI_TOKEN_HTTP_VARY, "Accept-Encoding", &cursor, end) }
            if let setCookie { addHeader(wsi, WSI_TOKEN_HTTP_SET_COOKIE, setCookie, &cursor, end) }
            return cursor.map { $0 - buffer.baseAddress! } ?? 0
        }
        let status = headers.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: length) {
                lws_serve_http_file(wsi, file, contentType, $0, Int32(length))
            }
        }
        if status < 0 || (status > 0 && lws_http_transaction_completed(wsi) != 0) { return -1 }
        return 0
    }
}

/// Sends a status with no body (and `Allow` when given), ending the transaction.
private func sendEmpty(status: UInt32, allow: String? = nil, on wsi: OpaquePointer) -> Int32 {
    var headers = [UInt8](repeating: 0, count: footlight_lws_pre() + 256)
    let written = headers.withUnsafeMutableBufferPointer { buffer -> Bool in
        let start = buffer.baseAddress! + footlight_lws_pre()
        var cursor: UnsafeMutablePointer<UInt8>? = start
        let end = buffer.baseAddress! + buffer.count
        guard lws_add_http_header_status(wsi, status, &cursor, end) == 0 else { return false }
        if let allow { addHeader(wsi, name: "allow:", allow, &cursor, end) }
        guard lws_add_http_header_content_length(wsi, 0, &cursor, end) == 0 else { return false }
        return lws_finalize_write_http_header(wsi, start, &cursor, end) == 0
    }
    return !written || lws_http_transaction_completed(wsi) != 0 ? -1 : 0
}

/// Whether an `Accept-Encoding` value accepts gzip (`gzip`, `gzip;q=0.5`, `*`), and not
/// with `q=0`.
func acceptsGzip(_ header: String) -> Bool {
    for item in header.lowercased().split(separator: ",") {
        let parts = item.split(separator: ";").map { $0.trimmingHeaderSpaces() }
        guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
        let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
        return quality > 0
    }
    return false
}

private func addHeader(
    _ wsi: OpaquePointer, _ token: lws_token_indexes, _ value: String, _ cursor: inout UnsafeMutablePointer<UInt8>?,
    _ end: UnsafeMutablePointer<UInt8>
) {
    var value = Array(value.utf8)
    _ = lws_add_http_header_by_token(wsi, token, &value, Int32(value.count), &cursor, end)
}

private func addHeader(
    _ wsi: OpaquePointer, name: String, _ value: String, _ cursor: inout UnsafeMutablePointer<UInt8>?,
    _ end: UnsafeMutablePointer<UInt8>
) {
    var value = Array(value.utf8)
    _ = lws_add_http_header_by_name(wsi, name, &value, Int32(value.count), &cursor, end)
}

/// protocols[1]: the Footlight WebSocket protocol.
func footlightSocketCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    socketCallback(wsi, reason, user, input, length, kind: .session)
}

/// protocols[2], only when the echo endpoint is enabled: every message comes back.
func footlightEchoCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    socketCallback(wsi, reason, user, input, length, kind: .echo)
}

private func socketCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int, kind: Connection.Kind
) -> Int32 {
    guard let wsi else { return 0 }
    let slot = user?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    switch reason {
    case LWS_CALLBACK_ESTABLISHED:
        guard let slot, let loop = ServiceLoop.from(wsi: wsi), let delegate = loop.delegate else { return -1 }
        let connection = Connection(
            handle: ConnectionHandle(id: ConnectionIDs.next(), loop: loop), wsi: wsi, kind: kind,
            request: kind == .session ? connectionRequest(wsi) : ConnectionRequest())
        // Balanced by the release in LWS_CALLBACK_CLOSED.
        slot.pointee = Unmanaged.passRetained(connection).toOpaque()
        loop.register(connection)
        delegate.opened(connection)
        return 0
    case LWS_CALLBACK_RECEIVE:
        guard let connection = connection(in: slot), let delegate = connection.handle.loop.delegate else { return -1 }
        connection.heard()
        // Closing: what the peer sent before it saw our close is read and dropped.
        if connection.isClosing { return 0 }
        return receive(input, length, on: connection, wsi: wsi, delegate: delegate)
    case LWS_CALLBACK_RECEIVE_PONG:
        connection(in: slot)?.heard()
        return 0
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        // The answer to our close ends the handshake: close the socket without echoing.
        // A close the peer started is echoed (return 0).
        return connection(in: slot)?.closeFrameSent == true ? 1 : 0
    case LWS_CALLBACK_SERVER_WRITEABLE:
        guard let connection = connection(in: slot) else { return -1 }
        return connection.writeable()
    case LWS_CALLBACK_CLOSED:
        // May arrive without ESTABLISHED (a refused handshake): the slot is then empty.
        guard let slot, let raw = slot.pointee else { return 0 }
        slot.pointee = nil
        let connection = Unmanaged<Connection>.fromOpaque(raw).takeRetainedValue()
        connection.discardOutbound()
        connection.handle.loop.unregister(connection)
        connection.handle.loop.delegate?.closed(connection)
        return 0
    default:
        return 0
    }
}

/// The upgrade request's cookies, the headers an app may read, and the peer's address
/// (libwebsockets still holds the request's headers while the connection is established).
private func connectionRequest(_ wsi: OpaquePointer) -> ConnectionRequest {
    var request = ConnectionRequest(cookie: requestHeader(wsi, WSI_TOKEN_HTTP_COOKIE))
    let readable: [(String, lws_token_indexes)] = [
        ("user-agent", WSI_TOKEN_HTTP_USER_AGENT), ("accept-language", WSI_TOKEN_HTTP_ACCEPT_LANGUAGE),
        ("host", WSI_TOKEN_HOST), ("origin", WSI_TOKEN_ORIGIN), ("x-forwarded-for", WSI_TOKEN_X_FORWARDED_FOR),
    ]
    for (name, token) in readable {
        if let value = requestHeader(wsi, token) { request.headers[name] = value }
    }
    var address = [CChar](repeating: 0, count: 64)
    if lws_get_peer_simple(wsi, &address, address.count) != nil {
        request.address = String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    return request
}

private func connection(in slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Connection? {
    guard let raw = slot?.pointee else { return nil }
    return Unmanaged<Connection>.fromOpaque(raw).takeUnretainedValue()
}

/// Joins fragments into whole messages, refusing one whose *declared* size passes the
/// limit before buffering it (libwebsockets itself has no message size limit).
private func receive(
    _ input: UnsafeMutableRawPointer?, _ length: Int, on connection: Connection, wsi: OpaquePointer,
    delegate: any LoopDelegate
) -> Int32 {
    let limit = delegate.maximumMessageBytes
    if lws_is_first_fragment(wsi) != 0 {
        connection.inbound.removeAll(keepingCapacity: connection.inbound.capacity <= 4096)
        connection.inboundIsBinary = lws_frame_is_binary(wsi) != 0
    }
    let declared = connection.inbound.count + length + Int(lws_remaining_packet_payload(wsi))
    if declared > limit {
        let reason = Array("message too large: limit \(limit) bytes".utf8)
        reason.withUnsafeBufferPointer { buffer in
            var bytes = Array(buffer)
            lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, &bytes, bytes.count)
        }
        connection.inbound = []
        return -1
    }
    let isFinal = lws_is_final_fragment(wsi) != 0
    if isFinal { connection.handle.loop.receivedMessages.add(1, ordering: .relaxed) }
    if isFinal && connection.inbound.isEmpty {
        // The common case: a whole message in one delivery, no copy.
        delegate.received(
            UnsafeRawBufferPointer(start: input, count: length), binary: connection.inboundIsBinary, on: connection)
        return 0
    }
    if let input, length > 0 {
        connection.inbound.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
    }
    if isFinal {
        let message = connection.inbound
        connection.inbound = []
        message.withUnsafeBytes { delegate.received($0, binary: connection.inboundIsBinary, on: connection) }
    }
    return 0
}

/// Process-wide connection numbering.
enum ConnectionIDs {
    private static let counter = Atomic<UInt64>(0)
    static func next() -> ConnectionID { counter.add(1, ordering: .relaxed).newValue }
}
