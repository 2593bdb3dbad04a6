import FootlightServer

/// N kiosk pages on one client loop, serviced by the calling thread (on one or more
/// nodes' ports): each joins, then
/// counts the patches it receives and when the newest arrived. For the transport's
/// floor, N connections of the echo endpoint instead, counted the same way.
final class FanoutClients: WebSocketClientDelegate {
    /// Where the clients connect.
    enum Target {
        /// Kiosk pages: each joins a session and shows the listings.
        case kiosk
        /// Connections of the server's echo endpoint, which the floor writes to.
        case echo
    }
    /// The echo endpoint's path on a floor server.
    static let echoPath = "/echo"
    let loop: WebSocketClientLoop
    let target: Target
    private var connections: [WebSocketClientConnection] = []
    /// Per connection: whether its first mount arrived, its patches, the last one's time.
    private(set) var mounted: [Bool]
    private(set) var patches: [Int]
    private(set) var lastPatch: [ContinuousClock.Instant]
    /// The size of each connection's last patch, in bytes.
    private(set) var lastPatchBytes: [Int]
    private(set) var failures = 0
    /// Why the first connection that failed did.
    private(set) var firstFailure: String?
    private static let join = try! Wire.Client.join.message([.version: .int(Int64(ClientMessage.version))])
        .serializedBytes()
    private static let mountPrefix = Wire.prefix(Wire.Server.mount.rawValue)
    private static let patchPrefix = Wire.prefix(Wire.Server.patch.rawValue)

    init(count: Int, target: Target = .kiosk) throws {
        loop = try WebSocketClientLoop(wakeInterval: .milliseconds(2))
        self.target = target
        lastPatchBytes = Array(repeating: 0, count: count)
        mounted = Array(repeating: false, count: count)
        patches = Array(repeating: 0, count: count)
        lastPatch = Array(repeating: .now, count: count)
    }

    /// Opens the connections, spread evenly over `ports` (one per node), and waits
    /// until each shows its first page (an echo connection: until its first message
    /// came back).
    func connectAll(ports: [Int], timeout: Duration) throws(FanoutError) {
        let deadline = ContinuousClock.now + timeout
        for index in mounted.indices {
            let port = ports[index % ports.count]
            let connection = WebSocketClientConnection(on: loop, tag: index, delegate: self)
            connections.append(connection)
            switch target {
            case .kiosk:
                connection.connect(
                    host: "127.0.0.1", port: port, path: "/ws", origin: "http://127.0.0.1:\(port)",
                    subprotocol: ServerConfiguration.subprotocol)
            case .echo:
                connection.connect(
                    host: "127.0.0.1", port: port, path: Self.echoPath, subprotocol: ServerConfiguration.echoSubprotocol
                )
            }
            // Keep the handshakes in flight bounded: service while many are pending.
            if index % 200 == 199 { try serviceUntil(deadline) { self.mountedCount > index - 400 } }
        }
        try serviceUntil(deadline) { self.mountedCount == self.mounted.count }
    }

    var mountedCount: Int { mounted.reduce(0) { $0 + ($1 ? 1 : 0) } }

    /// Services the loop until `done` or the deadline (then throws).
    func serviceUntil(_ deadline: ContinuousClock.Instant, _ done: () -> Bool) throws(FanoutError) {
        while !done() {
            guard ContinuousClock.now < deadline else { throw FanoutError("timed out") }
            if let firstFailure {
                throw FanoutError("\(failures) connection(s) failed, the first with: \(firstFailure)")
            }
            try serviceOnce()
        }
    }

    /// One pass of the client loop.
    func serviceOnce() throws(FanoutError) {
        // Typed all the way: an untyped `throws` around the loop's typed one crashes the
        // 6.3 compiler's release build (swifterror verification).
        do throws(WebSocketClientError) {
            try loop.serviceOnce()
        } catch {
            throw FanoutError("the client loop failed: \(error)")
        }
    }

    func stop() {
        for connection in connections { connection.close() }
        loop.stop()
    }

    // MARK: WebSocketClientDelegate

    func opened(_ connection: WebSocketClientConnection) {
        // An echo connection's join comes back as it is: the server holds the connection.
        connection.send(Self.join)
    }

    func received(_ message: UnsafeRawBufferPointer, isBinary: Bool, on connection: WebSocketClientConnection) {
        if message.starts(with: Self.patchPrefix) {
            patches[connection.tag] += 1
            lastPatch[connection.tag] = .now
            lastPatchBytes[connection.tag] = message.count
        } else if target == .echo || message.starts(with: Self.mountPrefix) {
            mounted[connection.tag] = true
        }
    }

    func ended(_ connection: WebSocketClientConnection, error: WebSocketClientError?) {
        guard let error else { return }
        failures += 1
        if firstFailure == nil { firstFailure = error.description }
    }
}

struct FanoutError: Error, CustomStringConvertible, Sendable {
    let description: String
    init(_ description: String) { self.description = description }
}
