import Crypto
import Footlight
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A WebSocket server for one client on a raw loopback socket, to test the client core
/// against exact bytes: it accepts, answers the handshake (echoing the first
/// subprotocol offered), then runs a script on a thread of its own.
///
/// ```swift
/// let server = try RawWebSocketServer.start { peer, _ in
///     peer.frame(opcode: 0x1, payload: Array("hello".utf8), masked: false)
/// }
/// // … connect a client to server.port …
/// try await server.finish()
/// ```
final class RawWebSocketServer: Sendable {
    /// What a script does with the accepted connection (and the server, to wait for
    /// ``proceed()``); a thrown error fails ``finish(timeout:)``.
    typealias Script = @Sendable (RawWebSocket, RawWebSocketServer) throws -> Void

    let port: Int
    private let listener: Int32
    private let outcome = Locked<Result<Void, any Error>?>(nil)
    private let requestHead = Locked<String?>(nil)
    private let proceedSignal = DispatchSemaphore(value: 0)

    private init(listener: Int32, port: Int) {
        self.listener = listener
        self.port = port
    }

    deinit { close(listener) }

    /// Listens on 127.0.0.1 (an ephemeral port) and serves the first connection with
    /// `script`. `sendBufferSize` caps the accepted socket's send buffer.
    static func start(sendBufferSize: Int32? = nil, script: @escaping Script) throws -> RawWebSocketServer {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw RawHTTPError("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw RawHTTPError("bind or listen failed")
        }
        let server = RawWebSocketServer(listener: listener, port: Int(UInt16(bigEndian: address.sin_port)))
        let thread = Thread {
            server.outcome.withLock { $0 = Result { try server.serve(sendBufferSize: sendBufferSize, script: script) } }
        }
        thread.start()
        return server
    }

    /// The client's upgrade request head, once it has arrived.
    var request: String? { requestHead.withLock { $0 } }

    /// Lets a script waiting in ``waitToProceed()`` go on.
    func proceed() { proceedSignal.signal() }

    /// Waits (up to 10 s) until the test calls ``proceed()``.
    func waitToProceed() throws {
        guard proceedSignal.wait(timeout: .now() + 10) == .success else { throw RawHTTPError("never told to proceed") }
    }

    /// Waits for the script to end, and rethrows what it threw.
    func finish(timeout: Duration = .seconds(10)) async throws {
        try await waitFor("the raw server's script to end", timeout: timeout) { outcome.withLock { $0 != nil } }
        try outcome.withLock { $0 }?.get()
    }

    private func serve(sendBufferSize: Int32?, script: Script) throws {
        var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 10_000) == 1 else { throw RawHTTPError("no client connected") }
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { throw RawHTTPError("accept failed") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = sendBufferSize {
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let peer = RawWebSocket(connected: fd)
        guard let head = peer.readHead() else { throw RawHTTPError("no upgrade request") }
        requestHead.withLock { $0 = head }
        guard let key = Self.header("Sec-WebSocket-Key", in: head) else { throw RawHTTPError("no key in \(head)") }
        let accept = Data(Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
            .base64EncodedString()
        var response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        response += "Sec-WebSocket-Accept: \(accept)\r\n"
        if let offered = Self.header("Sec-WebSocket-Protocol", in: head) {
            let first = offered.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            response += "Sec-WebSocket-Protocol: \(first)\r\n"
        }
        guard peer.write(response + "\r\n") else { throw RawHTTPError("the client left during the handshake") }
        try script(peer, self)
    }

    /// The value of header `name` in `head`, if present.
    static func header(_ name: String, in head: String) -> String? {
        for line in head.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name.lowercased() else {
                continue
            }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}
