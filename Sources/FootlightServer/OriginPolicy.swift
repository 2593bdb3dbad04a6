/// Which WebSocket handshakes may open a session: the right path, the Footlight
/// subprotocol, and an allowed `Origin` (the defence against cross-site WebSocket
/// hijacking; libwebsockets checks no origin itself).
struct OriginPolicy {
    /// Exact origins allowed; nil means only the server's own origin.
    let allowed: [String]?

    func decide(_ request: UpgradeRequest, webSocketPath: String, echoPath: String? = nil) -> UpgradeDecision {
        let path = request.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let offered = (request.subprotocols ?? "").split(separator: ",").map { $0.trimmingCharacters(in: " \t") }
        if let echoPath, path == echoPath {
            // Conformance runners offer no subprotocol; libwebsockets then binds the
            // connection to protocols[0], whose callback passes it on to the echo.
            return offered.isEmpty || offered.contains(ServerConfiguration.echoSubprotocol)
                ? .accept
                : .refuse(
                    status: 400,
                    reason:
                        "the echo endpoint takes the subprotocol \"\(ServerConfiguration.echoSubprotocol)\" or none")
        }
        guard path == webSocketPath else {
            return .refuse(status: 404, reason: "no WebSocket endpoint at \"\(path)\"")
        }
        guard offered.contains(ServerConfiguration.subprotocol) else {
            return .refuse(
                status: 400, reason: "the client must offer the subprotocol \"\(ServerConfiguration.subprotocol)\"")
        }
        guard let origin = request.origin else {
            return .refuse(status: 403, reason: "the handshake has no Origin header")
        }
        if let allowed {
            guard allowed.contains(origin) else {
                return .refuse(status: 403, reason: "origin \"\(origin)\" is not allowed")
            }
        } else {
            guard let host = request.host, origin == "http://\(host)" || origin == "https://\(host)" else {
                return .refuse(
                    status: 403, reason: "origin \"\(origin)\" is not this server's own (\(request.host ?? "no Host"))")
            }
        }
        return .accept
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
