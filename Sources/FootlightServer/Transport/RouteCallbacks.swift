import CLibWebSockets

// The HTTP callback's part for route requests: it reads a request a route's pattern
// matches, carries out the router's answer, and moves the exchange's bytes.

/// LWS_CALLBACK_HTTP for `path`: nil when no route's pattern matches it (static files
/// answer it), else what the callback returns.
func routeHTTP(_ wsi: OpaquePointer, loop: ServiceLoop, router: Router, path input: UnsafeMutableRawPointer?)
    -> Int32?
{
    let raw = input.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
    let decoded = raw.flatMap { String(validatingCString: $0) }
    let path = decoded ?? raw.map { String(cString: $0) } ?? "/"
    guard router.matches(path) else { return nil }
    var head = RouteHead(path: path, pathIsUTF8: decoded != nil || raw == nil)
    head.method = routeMethod(wsi)
    head.query = routeQuery(wsi)
    head.headers = routeHeaders(wsi)
    head.extraHeaders = routeCustomHeaders(wsi, router.extraHeaders)
    head.contentLength = requestHeader(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH, limit: 40)
    head.hasTransferEncoding = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0
    head.isHTTP10 = requestHeader(wsi, WSI_TOKEN_HTTP, limit: 16) == "HTTP/1.0"
    // Only an HTTP/2 request has the `:path` pseudo-header.
    head.isHTTP2 = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_COLON_PATH) > 0
    var address = [CChar](repeating: 0, count: 64)
    if lws_get_peer_simple(wsi, &address, address.count) != nil {
        head.address = String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    switch router.answer(head) {
    case nil:
        return nil
    case .respond(let response, let closing):
        return RouteWriting.writeNow(response, on: wsi, closing: closing, isHTTP2: head.isHTTP2)
    case .run(let job):
        let exchange = RouteExchange(loop: loop, wsi: wsi, router: router, job: job)
        loop.routeExchanges[wsi] = exchange
        // The body comes in LWS_CALLBACK_HTTP_BODY; without one the handler runs now.
        if job.bodyBytes == 0 {
            exchange.start()
        } else if head.headers["expect"]?.lowercased() == "100-continue", !head.isHTTP2, !head.isHTTP10 {
            // The client waits for this before it sends the body (libwebsockets sends none).
            guard RouteWriting.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)[...], on: wsi, final: false) else {
                return -1
            }
        }
        return 0
    }
}

/// The route exchange of `wsi`, if a route is answering its request.
func routeExchange(_ wsi: OpaquePointer?) -> RouteExchange? {
    guard let wsi, let loop = ServiceLoop.from(wsi: wsi) else { return nil }
    return loop.routeExchanges[wsi]
}

/// The method, from the token libwebsockets stored the path in.
private func routeMethod(_ wsi: OpaquePointer) -> HTTPMethod? {
    let methods: [(lws_token_indexes, HTTPMethod)] = [
        (WSI_TOKEN_GET_URI, .get), (WSI_TOKEN_POST_URI, .post), (WSI_TOKEN_HEAD_URI, .head),
        (WSI_TOKEN_PUT_URI, .put), (WSI_TOKEN_PATCH_URI, .patch), (WSI_TOKEN_DELETE_URI, .delete),
        (WSI_TOKEN_OPTIONS_URI, .options),
    ]
    return methods.first { lws_hdr_total_length(wsi, $0.0) > 0 }?.1
}

/// The query's items (libwebsockets splits them at `&` and `;` and decodes them), or
/// nil when one is not UTF-8.
private func routeQuery(_ wsi: OpaquePointer) -> [RouteRequest.QueryItem]? {
    var items: [RouteRequest.QueryItem] = []
    var index: Int32 = 0
    while true {
        let length = lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, index)
        guard length > 0 else { break }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        guard lws_hdr_copy_fragment(wsi, &buffer, Int32(buffer.count), WSI_TOKEN_HTTP_URI_ARGS, index) >= 0,
            let text = String(validating: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        else { return nil }
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        items.append(.init(name: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : ""))
        index += 1
    }
    return items
}

/// Every request header libwebsockets knows by name.
private func routeHeaders(_ wsi: OpaquePointer) -> HTTPHeaders {
    var headers = HTTPHeaders()
    for raw in WSI_TOKEN_HOST.rawValue..<WSI_TOKEN_COUNT.rawValue {
        let token = lws_token_indexes(rawValue: raw)
        guard !notHeaders.contains(raw), lws_hdr_total_length(wsi, token) > 0, let name = lws_token_to_string(token),
            let value = requestHeader(wsi, token, limit: 8192)
        else { continue }
        let text = String(cString: UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
        guard text.hasSuffix(":"), !text.hasPrefix(":") else { continue }
        headers.add(String(text.dropLast()), value)
    }
    return headers
}

/// The headers named `names` that libwebsockets does not know, as sent.
private func routeCustomHeaders(_ wsi: OpaquePointer, _ names: [String]) -> HTTPHeaders {
    var headers = HTTPHeaders()
    for name in names {
        let key = name + ":"
        let length = lws_hdr_custom_length(wsi, key, Int32(key.utf8.count))
        guard length >= 0, length <= 8192 else { continue }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        guard lws_hdr_custom_copy(wsi, &buffer, Int32(buffer.count), key, Int32(key.utf8.count)) >= 0 else { continue }
        headers.add(name, String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    return headers
}

/// Tokens that hold the request line's parts, not headers.
private let notHeaders: Set<UInt32> = Set(
    [
        WSI_TOKEN_GET_URI, WSI_TOKEN_POST_URI, WSI_TOKEN_OPTIONS_URI, WSI_TOKEN_PUT_URI, WSI_TOKEN_PATCH_URI,
        WSI_TOKEN_DELETE_URI, WSI_TOKEN_HEAD_URI, WSI_TOKEN_CONNECT, WSI_TOKEN_HTTP_URI_ARGS, WSI_TOKEN_HTTP,
        WSI_TOKEN_HTTP1_0,
    ].map(\.rawValue))
