import FootlightJSON

/// What a route handler answers: a status, headers, and a body given whole or streamed.
///
/// ```swift
/// .text("pong")
/// try .json(["id": "lot-1"])
/// .stream(contentType: "text/csv; charset=utf-8") { writer in
///     for row in rows { try await writer.write(row) }   // waits while the client is slow
/// }
/// ```
///
/// The server adds `Content-Length` (a body given whole) or sends the body chunked (a
/// stream), and `X-Content-Type-Options: nosniff`; headers a handler sets for these, or
/// `Connection`, are ignored.
public struct RouteResponse: Sendable {
    /// The body of a response.
    public enum Body: Sendable {
        /// The whole body.
        case bytes([UInt8])
        /// A body written piece by piece, each `write` waiting until the client has
        /// taken the previous one: a large body never sits whole in the server's memory.
        /// A `HEAD` request gets the headers only and the closure is not run. When it
        /// throws, the connection is closed before the body's end, so the client sees
        /// it cut.
        case stream(@Sendable (RouteBodyWriter) async throws -> Void)
    }

    /// The status (200, 404…).
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `text` as `text/plain; charset=utf-8`.
    public static func text(_ text: String, status: Int = 200) -> RouteResponse {
        RouteResponse(
            status: status, headers: ["content-type": "text/plain; charset=utf-8"], body: .bytes(Array(text.utf8)))
    }

    /// `json` as `application/json`, written by jansson (FootlightJSON).
    ///
    /// - Throws: ``FootlightJSON/JSONError`` when it cannot be written (a number that is
    ///   not finite).
    public static func json(_ json: JSON, status: Int = 200) throws -> RouteResponse {
        RouteResponse(
            status: status, headers: ["content-type": "application/json"], body: .bytes(try json.serializedBytes()))
    }

    /// A streamed body of `contentType` (see ``Body/stream(_:)``).
    public static func stream(
        contentType: String, status: Int = 200, headers: HTTPHeaders = HTTPHeaders(),
        _ write: @escaping @Sendable (RouteBodyWriter) async throws -> Void
    ) -> RouteResponse {
        var headers = headers
        headers["content-type"] = contentType
        return RouteResponse(status: status, headers: headers, body: .stream(write))
    }
}

/// Writes a streamed response's body (``RouteResponse/Body/stream(_:)``).
public struct RouteBodyWriter: Sendable {
    private let sink: @Sendable ([UInt8]) async throws -> Void

    init(_ sink: @escaping @Sendable ([UInt8]) async throws -> Void) {
        self.sink = sink
    }

    /// Sends `bytes` as the body's next piece; returns once the server has handed it to
    /// the socket (so while the client reads slowly, this waits).
    ///
    /// - Throws: `CancellationError` when the client has gone or the server is shutting
    ///   down: stop writing.
    public func write(_ bytes: [UInt8]) async throws {
        guard !bytes.isEmpty else { return }
        try await sink(bytes)
    }

    /// Sends `text` in UTF-8 (see ``write(_:)-([UInt8])``).
    public func write(_ text: String) async throws {
        try await write(Array(text.utf8))
    }
}
