import Crypto

/// A Lua script run atomically by Redis: by its SHA-1 (`EVALSHA`), sent whole
/// (`EVAL`) when that Redis does not know it yet (a new or restarted server).
public struct RedisScript: Sendable {
    /// The Lua source.
    public let source: String
    /// Its SHA-1, in hex, as Redis names scripts.
    public let sha1: String

    public init(_ source: String) {
        self.source = source
        sha1 = Insecure.SHA1.hash(data: Array(source.utf8)).map { byte in
            let hex = Array("0123456789abcdef".utf8)
            return String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
        }.joined()
    }

    /// Runs the script with `keys` and `arguments` on `connection`. An error the script
    /// raised is returned as ``RedisReply/error(_:)``.
    public func run(on connection: RedisConnection, keys: [String], arguments: [String]) throws(RedisError)
        -> RedisReply
    {
        let tail = [String(keys.count)] + keys + arguments
        let reply = try connection.command((["EVALSHA", sha1] + tail).map { Array($0.utf8) })
        if case .error(let text) = reply, text.hasPrefix("NOSCRIPT") {
            return try connection.command((["EVAL", source] + tail).map { Array($0.utf8) })
        }
        return reply
    }
}
