/// Where a Redis server listens: a host name or IP address and a TCP port.
public struct RedisAddress: Sendable, Hashable, CustomStringConvertible {
    /// The host name or IP address (an IPv6 address without brackets).
    public let host: String
    /// The TCP port.
    public let port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads `HOST:PORT` (`[::1]:6379` for an IPv6 address); nil when it is not one.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65_535).contains(port)
        else { return nil }
        var host = Substring(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, !host.contains(where: { $0 == "[" || $0 == "]" || $0.isWhitespace }) else { return nil }
        self.init(host: String(host), port: port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
