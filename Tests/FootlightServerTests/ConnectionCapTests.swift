import FootlightProbes
import FootlightServer
import FootlightTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The connection caps (RELIABILITY.md T7): one client address cannot hold more than
/// its share, and the server as a whole no more than its cap. Refused connections get
/// a 503 saying why, over real loopback sockets; other addresses are unaffected.
@Suite(.timeLimit(.minutes(1)))
struct ConnectionCapTests {
    @Test("Cap + 100 connections from one address: exactly the cap is accepted, the rest get 503")
    func perClientCap() async throws {
        let cap = 10
        // The held sockets send nothing: a header timeout longer than any wait here keeps
        // them open on a slow machine.
        let server = try TestServer.start(configure: {
            $0.maximumConnectionsPerClient = cap
            $0.headerTimeoutSeconds = 300
        }) { _ in [CounterScene.makeStage()] }
        defer { server.shutdown() }
        var sockets = try (0..<(cap + 100)).map { _ in try LoopbackSocket(port: server.port) }
        defer { for socket in sockets { socket.close() } }
        try await waitFor("every refusal") { server.refusedConnectionCount == 100 }
        #expect(server.openConnectionCount == cap)

        // The refused ones are told why; the accepted ones are served.
        var refused = 0
        var served = 0
        for socket in sockets {
            let reply = try socket.exchange("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            if reply.hasPrefix("HTTP/1.1 503") {
                #expect(reply.contains("connections from this address"))
                refused += 1
            } else if reply.hasPrefix("HTTP/1.1 200") {
                served += 1
            }
        }
        #expect(refused == 100 && served == cap)

        // Another address still gets in (loopback answers all of 127/8).
        let neighbour = try LoopbackSocket(port: server.port, from: "127.0.0.2")
        defer { neighbour.close() }
        #expect(try neighbour.exchange("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").hasPrefix("HTTP/1.1 200"))

        // Closing frees the places, and a whole session fits again.
        for socket in sockets { socket.close() }
        sockets.removeAll()
        try await waitFor("the closed sockets to be counted") { server.openConnectionCount <= 1 }
        let client = try await TestClient.connect(to: server)
        defer { client.close() }
        #expect(client.observation.joined)
        #expect(server.refusedConnectionCount == 100)
    }

    @Test("Over the global cap every address is refused with 503, and a place that frees up is reused")
    func globalCap() async throws {
        let server = try TestServer.start(configure: {
            $0.maximumConnections = 4
            $0.headerTimeoutSeconds = 300  // the held sockets send nothing (see perClientCap)
        }) { _ in [CounterScene.makeStage()] }
        defer { server.shutdown() }
        let held = try ["127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"].map {
            try LoopbackSocket(port: server.port, from: $0)
        }
        try await waitFor("the four connections") { server.openConnectionCount == 4 }
        let extra = try LoopbackSocket(port: server.port, from: "127.0.0.5")
        defer { extra.close() }
        let reply = try extra.exchange("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(reply.hasPrefix("HTTP/1.1 503") && reply.contains("the server's cap"))
        #expect(server.refusedConnectionCount == 1)

        held[0].close()
        try await waitFor("the place to free up") { server.openConnectionCount == 3 }
        let client = try await TestClient.connect(to: server)
        defer { client.close() }
        #expect(client.observation.joined)
        for socket in held { socket.close() }
    }
}

/// A plain TCP connection to the server on 127.0.0.1, optionally from another
/// loopback source address; every read waits 5 s at most.
final class LoopbackSocket {
    private var descriptor: Int32

    init(port: Int, from source: String? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawHTTPError("socket failed") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = Self.address(source, port: 0)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw RawHTTPError("bind to \(source) failed") }
        }
        var remote = Self.address("127.0.0.1", port: port)
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw RawHTTPError("connect failed") }
    }

    /// Sends `request` and reads the answer's head (and what came with it), or what
    /// arrived before the server closed or 5 s passed.
    func exchange(_ request: String) throws -> String {
        _ = request.withCString { send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while reply.count < 1 << 16, reply.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            reply += buffer[..<count]
        }
        // A refusal's short body comes in the same segment as its head.
        return String(decoding: reply, as: UTF8.self)
    }

    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    deinit { close() }

    private static func address(_ text: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(text)
        return address
    }
}
