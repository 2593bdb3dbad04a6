import FootlightJSON
import FootlightServer
import FootlightTesting

/// Servers with routes for the route tests, and what their handlers echo.
enum RouteTestSupport {
    /// A server with `routes` (and the test public folder), `configure` applied after.
    static func start(_ routes: Routes, configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> Server {
        try TestServer.start(
            configure: {
                $0.routes = routes
                configure(&$0)
            }, stages: { _ in [] })
    }

    /// The request as JSON: method, path, parameters, query, the `accept-language` and
    /// `x-signature` headers, the body's size and the visitor.
    static func echo(_ request: RouteRequest) throws -> RouteResponse {
        let parameters = JSON.object(
            .init(uniqueKeysWithValues: request.parameters.map { ($0.key, JSON.string($0.value)) }))
        return try .json([
            "method": .string(request.method.rawValue), "path": .string(request.path), "parameters": parameters,
            "query": .array(request.query.map { [.string($0.name), .string($0.value)] }),
            "language": request.headers["Accept-Language"].map(JSON.string) ?? .null,
            "signature": request.headers["x-signature"].map(JSON.string) ?? .null,
            "body": .int(Int64(request.body.count)),
            "visitor": request.visitor.map { .string($0.rawValue) } ?? .null,
        ])
    }

    /// The server's own origin, as a browser on its page sends it.
    static func ownOrigin(_ server: Server) -> (String, String) {
        ("Origin", "http://127.0.0.1:\(server.port)")
    }
}
