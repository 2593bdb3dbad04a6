/// Which WebSocket handshakes may open a session: the right path, the Footlight
/// subprotocol, and an allowed `Origin` (the defence against cross-site WebSocket
/// hijacking; libwebsockets checks no origin itself).
struct OriginPolicy {
    /// Exact origins allowed; nil means only the server's own origin.
    let allowed: [String]?
    /// The scheme of the server's own origin: "https" when it serves TLS itself.
    let scheme: String

    func decide(_ request: UpgradeRequest, webSocketPath: String, echoPath: String? = nil) -> UpgradeDecision {
        // libwebsockets 4.1.6 upgrades some handshakes RFC 6455 forbids; refuse them here.
        if let problem = Self.rfc6455Problem(request) { return problem }
        let path = request.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let offered = (request.subprotocols ?? "").split(separator: ",").map { String($0.trimmingHeaderSpaces()) }
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
            guard let host = request.host, origin == "\(scheme)://\(host)" else {
                return .refuse(
                    status: 403, reason: "origin \"\(origin)\" is not this server's own (\(request.host ?? "no Host"))")
            }
        }
        return .accept
    }
}

extension OriginPolicy {
    /// Why `request` is not a valid RFC 6455 opening handshake, or nil: version 13, and
    /// a key that is 16 bytes in base64. (An HTTP/1.0 request line cannot be seen from
    /// here: libwebsockets 4.1.6 keeps no trace of it.)
    static func rfc6455Problem(_ request: UpgradeRequest) -> UpgradeDecision? {
        guard request.version == "13" else {
            return .refuse(
                status: 426,
                reason: "unsupported WebSocket version \(request.version.map { "\"\($0)\"" } ?? "(none)"); use 13")
        }
        guard let key = request.key, isBase64Of16Bytes(key) else {
            return .refuse(status: 400, reason: "Sec-WebSocket-Key must be 16 bytes in base64")
        }
        return nil
    }

    /// Whether `key` is 22 base64 digits and "==" (what 16 bytes encode to).
    private static func isBase64Of16Bytes(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard bytes.count == 24, bytes[22] == UInt8(ascii: "="), bytes[23] == UInt8(ascii: "=") else { return false }
        return bytes[..<22].allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                true
            default: false
            }
        }
    }
}
