import Footlight

/// What a route handler is given: the request's method, path and the path's
/// parameters, its query, headers and body, and the visitor it comes from.
public struct RouteRequest: Sendable {
    /// One `name=value` item of the query (`?lot=7&sort=price`), percent-decoded, `+` read
    /// as a space; an item without `=` has an empty value.
    public struct QueryItem: Sendable, Equatable {
        public let name: String
        public let value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The method (a `HEAD` request runs its path's `GET` route, and says HEAD here).
    public let method: HTTPMethod
    /// The path, percent-decoded ("/lots/7/bids.csv").
    public let path: String
    /// The values of the pattern's `{name}` segments, by name (`["id": "7"]`).
    public let parameters: [String: String]
    /// The query's items, in order.
    public let query: [QueryItem]
    /// The request's headers: those libwebsockets knows by name (about a hundred common
    /// ones), and the others the route asks for (``RouteOptions/headers``).
    public let headers: HTTPHeaders
    /// The body, whole: at most the route's limit (``RouteOptions/maximumBodyBytes``, else
    /// ``RouteLimits/maximumBodyBytes``); a larger one is refused with 413 before it is read.
    public let body: [UInt8]
    /// The visitor the server's signed cookie names; nil when the request carried none,
    /// or one the server did not sign.
    public let visitor: VisitorID?
    /// The request's cookies by name (the first of a repeated name).
    public let cookies: [String: String]
    /// The client's address as the server's socket sees it (a proxy's, behind one).
    public let address: String?

    /// A request as the server makes it; tests of a handler make their own.
    public init(
        method: HTTPMethod, path: String, parameters: [String: String] = [:], query: [QueryItem] = [],
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], visitor: VisitorID? = nil,
        cookies: [String: String] = [:], address: String? = nil
    ) {
        self.method = method
        self.path = path
        self.parameters = parameters
        self.query = query
        self.headers = headers
        self.body = body
        self.visitor = visitor
        self.cookies = cookies
        self.address = address
    }

    /// The value of the first query item named `name`, or nil.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}
