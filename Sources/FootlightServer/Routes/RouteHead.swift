/// What the transport read of a request some route's pattern matches, for ``Router``
/// to decide on: everything but the body.
struct RouteHead {
    /// The method; nil for one libwebsockets does not name (CONNECT, TRACE…).
    var method: HTTPMethod?
    /// The path, percent-decoded (by libwebsockets).
    var path: String
    /// False when the decoded path is not UTF-8 (then `path` has U+FFFD in its place).
    var pathIsUTF8 = true
    /// The query's items; nil when one is not UTF-8.
    var query: [RouteRequest.QueryItem]? = []
    /// The headers libwebsockets knows by name.
    var headers = HTTPHeaders()
    /// Headers it does not know that some route reads: each route gets those it reads.
    var extraHeaders = HTTPHeaders()
    /// The `Content-Length` header as sent, if any.
    var contentLength: String?
    /// Whether a `Transfer-Encoding` header was sent (a chunked body).
    var hasTransferEncoding = false
    /// Whether the request line said HTTP/1.0 (no chunked answers then).
    var isHTTP10 = false
    /// Whether the request is a stream of an HTTP/2 connection (TLS with ALPN "h2"):
    /// libwebsockets frames the answer itself.
    var isHTTP2 = false
    var address: String?
}

/// What the transport does with a request a route's pattern matches.
enum RouteAnswer {
    /// Send this (small, whole) answer now; with `closing`, close the connection after
    /// it rather than read the request's body.
    case respond(RouteResponse, closing: Bool)
    /// Read the body (`job.bodyBytes`), then run the route (``Router/start(_:body:delivery:)``).
    case run(RouteJob)
}

/// A request the router took: its route, the request without its body, and the place
/// it holds among the handlers.
struct RouteJob: Sendable {
    let route: HTTPRoute
    let request: RouteRequest
    /// How many body bytes to read before the handler runs.
    let bodyBytes: Int
    let place: RoutePlace
    /// A HEAD request: the answer's head only.
    let isHead: Bool
    /// HTTP/1.0: a streamed body is sent unchunked and ends with the connection.
    let isHTTP10: Bool
    /// HTTP/2: a streamed body is sent unchunked, and every answer ends with a last
    /// (maybe empty) DATA frame.
    let isHTTP2: Bool
}

/// How a running route hands its answer to its connection's loop (thread-safe).
struct RouteDelivery: Sendable {
    /// The response; a streamed body follows through `write` and `finish`.
    let respond: @Sendable (RouteResponse) -> Void
    /// One piece of a streamed body; returns once the loop has written it.
    let write: @Sendable ([UInt8]) async throws -> Void
    /// The streamed body ended: whole (nil), or cut by an error.
    let finish: @Sendable ((any Error)?) -> Void
}
