import CLibWebSockets

/// The bytes of route answers on the wire (HTTP/1.1 through libwebsockets): heads,
/// pieces of bodies, chunked framing.
enum RouteWriting {
    /// The most bytes of a whole body written in one writeable callback.
    static let sliceBytes = 32 << 10

    /// The head of `response`: status, its headers, `Content-Length` (a whole body) or
    /// `Transfer-Encoding: chunked` (a stream; for HTTP/1.0 none, and the connection
    /// closes at the end), and `nosniff`. False when it could not be written.
    static func writeHead(_ response: RouteResponse, on wsi: OpaquePointer, job: RouteJob) -> Bool {
        var framing: [(String, String)] = [("x-content-type-options", "nosniff")]
        switch response.body {
        // 204 and 304 have no body, and say no length (RFC 9110 §8.6).
        case .bytes where response.status == 204 || response.status == 304: break
        case .bytes(let bytes): framing.append(("content-length", String(bytes.count)))
        case .stream where job.isHTTP2: break
        case .stream where job.isHTTP10: framing.append(("connection", "close"))
        case .stream: framing.append(("transfer-encoding", "chunked"))
        }
        return withHead(response.status, response.headers, framing, on: wsi) { start, cursor, end in
            lws_finalize_write_http_header(wsi, start, &cursor, end) == 0
        }
    }

    /// Writes `response` (a whole body) in one go, at once: a refusal from the HTTP
    /// callback. With `closing` the connection closes after it (the request's body is
    /// not read). Returns what the callback returns.
    ///
    /// HTTP/2 cannot take a head and a body in one write: there libwebsockets' own status
    /// answer carries the text (in its page, without the response's other headers).
    static func writeNow(_ response: RouteResponse, on wsi: OpaquePointer, closing: Bool, isHTTP2: Bool) -> Int32 {
        guard case .bytes(let body) = response.body else { return -1 }
        if isHTTP2 {
            lws_return_http_status(wsi, UInt32(response.status), String(decoding: body, as: UTF8.self))
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        }
        var framing = [("content-length", String(body.count)), ("x-content-type-options", "nosniff")]
        if closing { framing.append(("connection", "close")) }
        let written = withHead(response.status, response.headers, framing, extra: body.count, on: wsi) {
            start, cursor, end in
            guard lws_finalize_http_header(wsi, &cursor, end) == 0, end - cursor! >= body.count else { return false }
            body.withUnsafeBytes { cursor!.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: body.count) }
            cursor! += body.count
            let count = cursor! - start
            return lws_write(wsi, start, count, LWS_WRITE_HTTP_FINAL) >= 0
        }
        if !written || closing { return -1 }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    /// Builds a head in a buffer with room for `extra` bytes after it and hands it to
    /// `finish` (start of the head, cursor after the last header, end of the buffer).
    private static func withHead(
        _ status: Int, _ headers: HTTPHeaders, _ framing: [(String, String)], extra: Int = 0, on wsi: OpaquePointer,
        _ finish: (UnsafeMutablePointer<UInt8>, inout UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>) ->
            Bool
    ) -> Bool {
        let fields = headers.fields.map { ($0.name, $0.value) } + framing
        let room = fields.reduce(512) { $0 + $1.0.utf8.count + $1.1.utf8.count + 8 } + extra
        var buffer = [UInt8](repeating: 0, count: footlight_lws_pre() + room)
        return buffer.withUnsafeMutableBufferPointer { buffer -> Bool in
            let start = buffer.baseAddress! + footlight_lws_pre()
            let end = buffer.baseAddress! + buffer.count
            var cursor: UnsafeMutablePointer<UInt8>? = start
            guard lws_add_http_header_status(wsi, UInt32(status), &cursor, end) == 0 else { return false }
            for (name, value) in fields {
                var value = Array(value.utf8)
                guard lws_add_http_header_by_name(wsi, name + ":", &value, Int32(value.count), &cursor, end) == 0
                else { return false }
            }
            return finish(start, &cursor, end)
        }
    }

    /// Writes `bytes` as body (the last of it with `final`); false when the connection
    /// failed. libwebsockets keeps what the socket did not take and calls back writeable
    /// only once it is sent.
    static func write(_ bytes: ArraySlice<UInt8>, on wsi: OpaquePointer, final: Bool) -> Bool {
        let pre = footlight_lws_pre()
        var buffer = [UInt8](repeating: 0, count: pre + bytes.count)
        buffer.replaceSubrange(pre..., with: bytes)
        return buffer.withUnsafeMutableBufferPointer { buffer in
            lws_write(wsi, buffer.baseAddress! + pre, bytes.count, final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP)
                >= 0
        }
    }

    /// `bytes` as one chunk of a chunked body: its size in hex, CRLF, the bytes, CRLF.
    static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10]
    }

    /// The end of a chunked body.
    static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)
}
