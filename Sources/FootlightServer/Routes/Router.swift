import Footlight
import Logging

/// The server's decisions about requests some route's pattern matches, made on the
/// loop thread from what the transport read (``RouteHead``): which route, or which
/// refusal (400, 403, 405, 411, 413, 503), with the request's body still unread.
final class Router: Sendable {
    private let routes: [(route: HTTPRoute, pattern: RoutePattern)]
    let limits: RouteLimits
    private let origins: OriginPolicy
    private let visitors: VisitorCookies
    let logger: Logger
    let workers: RouteWorkers
    /// Header names some route reads beyond those libwebsockets knows.
    let extraHeaders: [String]

    init(configuration: ServerConfiguration, visitors: VisitorCookies) throws(ServerError) {
        var routes: [(HTTPRoute, RoutePattern)] = []
        // What the server answers itself: no route may hide it.
        let exact = [configuration.webSocketPath] + (configuration.echoPath.map { [$0] } ?? [])
        let folders = ["/footlight/", "/_footlight/"] + configuration.servedFolders.map(\.path)
        for route in configuration.routes.all {
            let pattern = try RoutePattern(route.pattern)
            if let path = exact.first(where: { pattern.overlaps($0, underneath: false) })
                ?? folders.first(where: { pattern.overlaps($0, underneath: true) })
            {
                throw .configuration("route \"\(route.pattern)\" would hide \(path), which the server answers itself")
            }
            routes.append((route, pattern))
        }
        self.routes = routes
        limits = configuration.routeLimits
        origins = OriginPolicy(
            allowed: configuration.allowedOrigins, scheme: configuration.tls == nil ? "http" : "https")
        self.visitors = visitors
        logger = configuration.logger
        extraHeaders = Array(Set(routes.flatMap(\.0.options.headers))).sorted()
        workers = RouteWorkers(
            threads: routes.isEmpty ? 0 : limits.workerThreads, maximumPlaces: limits.maximumConcurrentHandlers)
    }

    /// Whether some route's pattern matches `path` (else static files answer it).
    func matches(_ path: String) -> Bool {
        let parts = RoutePattern.split(path)
        return routes.contains { $0.pattern.match(parts) != nil }
    }

    /// The answer to `head`, or nil when no route's pattern matches its path.
    func answer(_ head: RouteHead) -> RouteAnswer? {
        let parts = RoutePattern.split(head.path)
        let candidates = routes.compactMap { entry in entry.pattern.match(parts).map { (entry.route, $0) } }
        guard !candidates.isEmpty else { return nil }
        guard head.pathIsUTF8 else { return refuse(400, "the path is not UTF-8 once decoded", head) }
        let wanted = head.method == .head ? HTTPMethod.get : head.method
        guard let (route, parameters) = candidates.first(where: { $0.0.method == wanted }) else {
            var allowed = candidates.map(\.0.method.rawValue)
            if allowed.contains("GET") { allowed.append("HEAD") }
            let allow = Array(Set(allowed)).sorted().joined(separator: ", ")
            return refuse(
                405, "\(head.method?.rawValue ?? "this method") is not one of \(allow) here", head,
                headers: ["allow": allow])
        }
        let method = head.method ?? .get
        if method.changesState, !route.options.allowsCrossOrigin,
            let reason = origins.refusesStateChange(
                origin: head.headers["origin"], referer: head.headers["referer"], host: head.headers["host"])
        {
            return refuse(403, reason, head)
        }
        guard let query = head.query else { return refuse(400, "the query is not UTF-8 once decoded", head) }
        guard !head.hasTransferEncoding else {
            return refuse(411, "send the body with a Content-Length, not a Transfer-Encoding", head)
        }
        var bodyBytes = 0
        if let declared = head.contentLength {
            guard let count = Int(declared), count >= 0 else {
                return refuse(400, "Content-Length \"\(declared.prefix(20))\" is not a number", head)
            }
            bodyBytes = count
        } else if method == .post || method == .put || method == .patch {
            return refuse(411, "a \(method) needs a Content-Length", head)
        }
        let limit = route.options.maximumBodyBytes ?? limits.maximumBodyBytes
        guard bodyBytes <= limit else {
            return refuse(413, "the body has \(bodyBytes) bytes; this route takes \(limit) at most", head)
        }
        guard let place = workers.takePlace() else {
            return refuse(
                503, "every one of the \(workers.maximumPlaces) handlers is busy; try again", head,
                headers: ["retry-after": String(limits.retryAfterSeconds)])
        }
        let cookies = CookieHeader.values(head.headers["cookie"])
        var headers = head.headers
        for field in head.extraHeaders where route.options.headers.contains(field.name) {
            headers.add(field.name, field.value)
        }
        let request = RouteRequest(
            method: method, path: head.path, parameters: parameters, query: query, headers: headers,
            visitor: visitors.visitor(in: cookies), cookies: cookies, address: head.address)
        return .run(
            RouteJob(
                route: route, request: request, bodyBytes: bodyBytes, place: place, isHead: method == .head,
                isHTTP10: head.isHTTP10, isHTTP2: head.isHTTP2))
    }

    /// A refusal sent at once and logged; the connection closes after it when the
    /// request has a body (it is not read).
    private func refuse(_ status: Int, _ reason: String, _ head: RouteHead, headers: HTTPHeaders = HTTPHeaders())
        -> RouteAnswer
    {
        logger.info(
            "route refused: \(reason)",
            metadata: ["status": "\(status)", "method": "\(head.method?.rawValue ?? "?")", "path": "\(head.path)"])
        // libwebsockets reads a POST, PUT or PATCH without a Content-Length as a body of 100 MB.
        let unread = head.contentLength.map { $0 != "0" } ?? [.post, .put, .patch].contains(head.method)
        let hasBody = head.hasTransferEncoding || unread
        return .respond(Self.plain(status, reason, headers: headers), closing: hasBody)
    }

    /// A short plain-text answer: "413 the body has…".
    static func plain(_ status: Int, _ message: String, headers: HTTPHeaders = HTTPHeaders()) -> RouteResponse {
        var response = RouteResponse.text("\(status) \(message)\n", status: status)
        for field in headers { response.headers[field.name] = field.value }
        response.headers["cache-control"] = "no-store"
        return response
    }

    /// Lets the worker threads end once the handlers still running have returned.
    func stop() {
        workers.stop()
    }
}
