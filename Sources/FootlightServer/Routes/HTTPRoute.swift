/// A handler for one method at one path pattern, beside the pages and the WebSocket
/// (see the HTTP Routes article).
///
/// A pattern is a path whose segments are literal or `{name}` parameters:
/// `/lots/{id}/bids.csv` matches `/lots/7/bids.csv` with `id` = "7".
public struct HTTPRoute: Sendable {
    /// What a route runs for a request, off the service loops, within
    /// ``RouteLimits/timeLimit``. A sync closure is taken as well.
    public typealias Handler = @Sendable (RouteRequest) async throws -> RouteResponse

    public let method: HTTPMethod
    /// The path pattern, as given ("/lots/{id}/bids.csv").
    public let pattern: String
    public let options: RouteOptions
    let handler: Handler

    public init(
        _ method: HTTPMethod, _ pattern: String, options: RouteOptions = RouteOptions(),
        handler: @escaping Handler
    ) {
        self.method = method
        self.pattern = pattern
        self.options = options
        self.handler = handler
    }
}

/// How one route differs from the server's defaults.
public struct RouteOptions: Sendable {
    /// The largest body this route reads; nil: ``RouteLimits/maximumBodyBytes``.
    public var maximumBodyBytes: Int?
    /// Whether a state-changing request (POST, PUT, PATCH, DELETE) is taken from any
    /// origin, or with none: for callers that are not browsers, such as a payment
    /// provider's webhook, which must then prove who they are some other way (a
    /// signature). Off by default: such a request must come from an allowed origin
    /// (``ServerConfiguration/allowedOrigins``, else the server's own), as its `Origin`
    /// or, without one, its `Referer` says; a request with neither is refused with 403.
    public var allowsCrossOrigin: Bool
    /// Headers libwebsockets does not know by name that the handler reads (a webhook's
    /// "x-hub-signature-256"); known ones (`authorization`, `content-type`…) are always in
    /// ``RouteRequest/headers``.
    public var headers: [String]

    public init(maximumBodyBytes: Int? = nil, allowsCrossOrigin: Bool = false, headers: [String] = []) {
        self.maximumBodyBytes = maximumBodyBytes
        self.allowsCrossOrigin = allowsCrossOrigin
        self.headers = headers.map { $0.lowercased() }
    }
}

/// The HTTP routes of a server (``ServerConfiguration/routes``), in the order added; the
/// first whose pattern and method match a request answers it.
///
/// ```swift
/// var routes = Routes()
/// routes.get("/api/lots") { _ in try .json(.array(auction.lots.map(\.json))) }
/// routes.post("/hooks/payment", options: RouteOptions(allowsCrossOrigin: true)) { request in
///     try payments.confirm(request.body)
///     return RouteResponse(status: 204)
/// }
/// configuration.routes = routes
/// ```
public struct Routes: Sendable {
    /// Every route, in the order added.
    public private(set) var all: [HTTPRoute] = []

    /// No routes.
    public init() {}

    /// Adds `route` after the others.
    public mutating func add(_ route: HTTPRoute) {
        all.append(route)
    }

    /// Adds a route for `method` at `pattern`.
    public mutating func on(
        _ method: HTTPMethod, _ pattern: String, options: RouteOptions = RouteOptions(),
        _ handler: @escaping HTTPRoute.Handler
    ) {
        add(HTTPRoute(method, pattern, options: options, handler: handler))
    }

    /// Adds a `GET` route (which `HEAD` requests run too).
    public mutating func get(
        _ pattern: String, options: RouteOptions = RouteOptions(), _ handler: @escaping HTTPRoute.Handler
    ) {
        on(.get, pattern, options: options, handler)
    }

    /// Adds a `POST` route.
    public mutating func post(
        _ pattern: String, options: RouteOptions = RouteOptions(), _ handler: @escaping HTTPRoute.Handler
    ) {
        on(.post, pattern, options: options, handler)
    }

    /// Adds a `PUT` route.
    public mutating func put(
        _ pattern: String, options: RouteOptions = RouteOptions(), _ handler: @escaping HTTPRoute.Handler
    ) {
        on(.put, pattern, options: options, handler)
    }

    /// Adds a `DELETE` route.
    public mutating func delete(
        _ pattern: String, options: RouteOptions = RouteOptions(), _ handler: @escaping HTTPRoute.Handler
    ) {
        on(.delete, pattern, options: options, handler)
    }
}
