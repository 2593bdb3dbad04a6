extension OriginPolicy {
    /// Why a state-changing request (POST, PUT, PATCH, DELETE) must be refused, or nil:
    /// its `Origin`, or without one the origin of its `Referer`, must be allowed, as for
    /// a WebSocket (the defence against cross-site request forgery).
    func refusesStateChange(origin: String?, referer: String?, host: String?) -> String? {
        guard let origin = origin ?? referer.flatMap(Self.origin(ofURL:)) else {
            return "a request that changes state needs an Origin or Referer header"
        }
        if let allowed {
            return allowed.contains(origin) ? nil : "origin \"\(origin)\" is not allowed"
        }
        guard let host, origin == "\(scheme)://\(host)" else {
            return "origin \"\(origin)\" is not this server's own (\(host ?? "no Host"))"
        }
        return nil
    }

    /// "https://example.com:8443" of "https://example.com:8443/page?x", or nil.
    static func origin(ofURL url: String) -> String? {
        guard let scheme = url.range(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty else { return nil }
        return String(url[..<scheme.upperBound]) + authority
    }
}
