import Footlight

extension ServerCore {
    /// The answer to a `GET` of an app's page with its first content
    /// (``FirstContentConfiguration``), or nil to send the page as it is: a `HEAD`, a
    /// file of a served folder, or whatever ``FirstContent`` declines. `setCookie` is
    /// the new visitor cookie the page sets, if any: the session belongs to its visitor.
    func firstContentAnswer(_ request: HTTPRequest, setCookie: String?) -> HTTPAnswer? {
        guard firstContent.configuration.isEnabled, !request.isHead,
            !folders.contains(where: { request.path.hasPrefix($0.folder.path) }),
            case .file(let file, let contentType, let cacheControl) = files.resolve(request.path),
            contentType.hasPrefix("text/html"),
            let page = try? assets.variant(
                path: file, contentType: contentType, cacheControl: cacheControl, acceptsGzip: false)
        else { return nil }
        var cookies = CookieHeader.values(request.connection.cookie)
        if let setCookie, let pair = setCookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1),
            pair.count == 2
        {
            cookies[String(pair[0])] = String(pair[1])
        }
        let session = SessionRequest(
            visitor: visitors.visitor(in: cookies), cookies: cookies, headers: request.connection.headers,
            address: request.connection.address)
        let path = request.path + (request.query.map { "?" + $0 } ?? "")
        guard
            let (first, encoding) = firstContent.page(
                page.path, path: path, request: session, gzip: request.acceptsGzip)
        else { return nil }
        // `no-store`: the page holds a session's token, for this browser only and once.
        return .file(
            path: first, contentType: contentType, cacheControl: "private, no-store", contentEncoding: encoding,
            varies: true, setCookie: setCookie)
    }
}
