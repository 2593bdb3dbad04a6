import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Plain HTTP/1.1 over a raw loopback socket, for tests of a server's routes: exactly
/// the bytes of the request go out, and the answer comes back as sent, a chunked body
/// joined.
///
/// ```swift
/// let response = try await HTTPTestClient.send(port: server.port, "GET", "/api/lots")
/// #expect(response.status == 200)
/// let lots = try JSON.parse(response.body)
/// ```
public enum HTTPTestClient {
    /// Sends `method path` with `headers` (and `Host`, `Connection: close`, and
    /// `Content-Length` when there is a `body`) and reads the answer until the server
    /// closes (at most `timeout`). On a thread of its own, off Swift's cooperative pool.
    public static func send(
        port: Int, _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        timeout: Duration = .seconds(10)
    ) async throws -> HTTPTestResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        let request = Array((head + "\r\n").utf8) + (body ?? [])
        return try await exchange(port: port, request: request, timeout: timeout)
    }

    /// Sends `request` as it is and reads the answer until the server closes.
    public static func exchange(port: Int, request: [UInt8], timeout: Duration = .seconds(10)) async throws
        -> HTTPTestResponse
    {
        let (raw, received) = try await offThePool {
            let socket = try HTTPTestSocket(port: port, timeout: timeout)
            try socket.write(request)
            let raw = socket.readToEnd()
            return (raw, ContinuousClock.now)
        }
        return try HTTPTestResponse(raw, receivedAt: received)
    }

    /// Runs blocking socket work on a thread of its own: a test blocked in `recv` on
    /// Swift's cooperative pool (a thread per core) would stall every other test.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}

/// An HTTP answer as ``HTTPTestClient`` read it.
public struct HTTPTestResponse: Sendable {
    public let status: Int
    /// Headers by lowercase name (the last of a repeated name).
    public let headers: [String: String]
    /// The body; a chunked one joined.
    public let body: [UInt8]
    /// Whether a chunked body ended with its last chunk (false: the server cut it).
    public let isComplete: Bool
    /// When the whole answer had come, on the client's own thread: a time a test can
    /// hold the server to however late the test's task gets a thread back (the
    /// cooperative pool is shared with every other test of the process).
    public let receivedAt: ContinuousClock.Instant

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Reads an answer from its bytes, which came by `receivedAt` (by default, now).
    public init(_ raw: [UInt8], receivedAt: ContinuousClock.Instant = .now) throws {
        guard let split = raw.firstRange(of: Array("\r\n\r\n".utf8)) else {
            throw HTTPTestError("no end of headers in \(raw.count) bytes")
        }
        let lines = String(decoding: raw[..<split.lowerBound], as: UTF8.self).split(separator: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw HTTPTestError("bad status line \"\(lines.first ?? "")\"")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...].drop { $0 == " " })
        }
        let rest = Array(raw[split.upperBound...])
        self.status = status
        self.headers = headers
        self.receivedAt = receivedAt
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            (body, isComplete) = Self.unchunked(rest)
        } else {
            body = rest
            isComplete = headers["content-length"].flatMap(Int.init).map { $0 == rest.count } ?? true
        }
    }

    /// The chunks of a chunked body joined, and whether the last chunk came.
    static func unchunked(_ bytes: [UInt8]) -> ([UInt8], Bool) {
        var body: [UInt8] = []
        var index = 0
        while let lineEnd = bytes[index...].firstRange(of: [13, 10]) {
            let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else { return (body, false) }
            if size == 0 { return (body, true) }
            let start = lineEnd.upperBound
            guard start + size + 2 <= bytes.count else {
                body += bytes[start..<min(bytes.count, start + size)]
                return (body, false)
            }
            body += bytes[start..<start + size]
            index = start + size + 2
        }
        return (body, false)
    }
}

/// A failure of ``HTTPTestClient``.
public struct HTTPTestError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
