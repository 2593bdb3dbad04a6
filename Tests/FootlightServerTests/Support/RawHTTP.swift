#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 exchange over a raw loopback socket: exactly the bytes given go
/// out (so paths like `/../x` are not normalised by a client library).
enum RawHTTP {
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]
    }

    static func get(port: Int, path: String, extraHeaders: String = "") throws -> Response {
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(extraHeaders)Connection: close\r\n\r\n"
        let raw = try exchange(port: port, request: Array(request.utf8))
        guard let split = raw.firstRange(of: Array("\r\n\r\n".utf8)) else {
            throw RawHTTPError("no header end in reply")
        }
        let head = String(decoding: raw[..<split.lowerBound], as: UTF8.self).split(separator: "\r\n")
        guard let statusLine = head.first, statusLine.split(separator: " ").count >= 2,
            let status = Int(statusLine.split(separator: " ")[1])
        else { throw RawHTTPError("bad status line") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingPrefix(" ").description
        }
        return Response(status: status, headers: headers, body: Array(raw[split.upperBound...]))
    }

    /// Sends `request` and reads until the end of the response headers (a WebSocket
    /// handshake stays open), the server closes, or 5 s pass.
    static func exchangeUntilHeaders(port: Int, request: [UInt8]) throws -> [UInt8] {
        try exchange(port: port, request: request) { $0.firstRange(of: Array("\r\n\r\n".utf8)) != nil }
    }

    /// Sends `request` and reads until the server closes (at most 5 s, 1 MiB).
    static func exchange(port: Int, request: [UInt8], done: ([UInt8]) -> Bool = { _ in false }) throws -> [UInt8] {
        let fd = try connectLoopback(port: port, timeoutSeconds: 5)
        defer { close(fd) }
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while reply.count < 1 << 20 {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            reply += buffer[..<count]
            if done(reply) { break }
        }
        return reply
    }
}

struct RawHTTPError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A TCP socket connected to 127.0.0.1:`port` whose reads time out after
/// `timeoutSeconds` (the caller closes it).
func connectLoopback(port: Int, timeoutSeconds: Int) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw RawHTTPError("socket failed") }
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        close(fd)
        throw RawHTTPError("connect failed")
    }
    return fd
}
