import Footlight
import FootlightJSON
import FootlightServer

/// A headless protocol v1 client over a real loopback WebSocket (libwebsockets'
/// client API), for socket-level tests.
///
/// It joins, keeps a mirror of every stage's document by applying the server's
/// patches, acknowledges what it applied, and re-sends unacknowledged events after a
/// resume, as the browser runtime does.
///
/// ```swift
/// let server = try TestServer.start { _ in [CounterScene.makeStage()] }
/// let client = try await TestClient.connect(to: server)
/// try await client.send("increment", in: "counter")
/// try await client.waitUntil("/count", in: "counter", equals: "Count: 1")
/// ```
public final class TestClient: Sendable {
    /// The server's port.
    public let port: Int
    /// The `Origin` header sent with the handshake (nil: none).
    public let origin: String?
    private let subprotocol: String?
    private let thread: WebSocketClientThread
    /// The page path sent with a fresh join (a deep link).
    private let path: String?
    /// The `Cookie` header of every handshake (a visitor's cookie, say).
    private let cookie: String?

    private struct Waiter {
        let description: String
        let isSatisfied: @Sendable (Observation) -> Bool
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// What a waiter can look at.
    public struct Observation: Sendable {
        public let mirror: ClientMirror
        public let isOpen: Bool
        public let joined: Bool
        /// The close code and reason the server sent, if it closed the connection.
        public let closeFrame: (code: UInt16, reason: String)?
        /// Why the last connection attempt or connection ended, if it failed.
        public let connectionError: String?
        /// How many sockets this client has opened and seen end.
        public let socketsEnded: Int
    }

    private struct State {
        var mirror = ClientMirror()
        var isOpen = false
        var joined = false
        var closeFrame: (code: UInt16, reason: String)?
        var connectionError: String?
        var socketsEnded = 0
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
        var autoJoin = true
        /// What the next join asks a server that lost the session to rebuild.
        var restore: ClientMessage.Restore?

        var observation: Observation {
            Observation(
                mirror: mirror, isOpen: isOpen, joined: joined, closeFrame: closeFrame,
                connectionError: connectionError, socketsEnded: socketsEnded)
        }
    }
    private let state = Locked(State())
    /// The current connection (a resume opens a new one).
    private let socket: WebSocketClientThread.Bound<WebSocketClientConnection?>

    private init(port: Int, origin: String?, subprotocol: String?, path: String? = nil, cookie: String? = nil) throws {
        self.port = port
        self.path = path
        self.cookie = cookie
        self.origin = origin
        self.subprotocol = subprotocol
        thread = try Self.sharedThread
        socket = .init(nil, on: thread)
    }

    /// The client thread all test clients of a process share, started on first use.
    private static var sharedThread: WebSocketClientThread {
        get throws(WebSocketClientError) {
            try sharedThreadHolder.withLock { thread throws(WebSocketClientError) in
                if let thread { return thread }
                let started = try WebSocketClientThread(name: "footlight-test-client")
                thread = started
                return started
            }
        }
    }
    private static let sharedThreadHolder = Locked<WebSocketClientThread?>(nil)

    /// Connects to the server on `port` and, unless `join` is false, joins a new
    /// session and waits for its first mounts. `cookie` is sent as the `Cookie` header
    /// of every handshake (`footlight_visitor=…`, say).
    public static func connect(
        port: Int, origin: String? = nil, subprotocol: String? = ServerConfiguration.subprotocol, join: Bool = true,
        path: String? = nil, cookie: String? = nil, timeout: Duration = .seconds(10)
    ) async throws -> TestClient {
        let client = try TestClient(
            port: port, origin: origin ?? "http://127.0.0.1:\(port)", subprotocol: subprotocol, path: path,
            cookie: cookie)
        client.state.withLock { $0.autoJoin = join }
        client.openSocket()
        if join {
            try await client.waitUntilJoined(timeout: timeout)
        } else {
            try await client.wait("the connection to open", timeout: timeout) { $0.isOpen || $0.socketsEnded > 0 }
        }
        return client
    }

    /// Connects to `server` (see ``connect(port:origin:subprotocol:join:timeout:)``).
    public static func connect(to server: Server, timeout: Duration = .seconds(10)) async throws -> TestClient {
        try await connect(port: server.port, timeout: timeout)
    }

    /// Connects without an `Origin` header or with any origin, to test refusals.
    public static func connect(
        port: Int, sendingOrigin origin: String?, subprotocol: String? = ServerConfiguration.subprotocol,
        timeout: Duration = .seconds(10)
    ) async throws -> TestClient {
        let client = try TestClient(port: port, origin: origin, subprotocol: subprotocol)
        client.state.withLock { $0.autoJoin = true }
        client.openSocket()
        try await client.wait("the handshake to finish", timeout: timeout) { $0.joined || $0.socketsEnded > 0 }
        return client
    }

    // MARK: Reading the mirror

    /// What the client knows now.
    public var observation: Observation { state.withLock { $0.observation } }

    /// The mirror of `stage`'s document.
    public func document(of stage: String) -> JSON? {
        state.withLock { $0.mirror.documents[stage] }
    }

    /// The value at `pointer` in `stage`'s document.
    public func value(at pointer: String, in stage: String) -> JSON? {
        guard let pointer = try? JSONPointer(pointer) else { return nil }
        return document(of: stage)?.value(at: pointer)
    }

    // MARK: Sending

    /// Sends a user event and returns its number. While disconnected, the event waits
    /// and is sent after the resume.
    @discardableResult
    public func send(_ event: String, in stage: String, value: JSON? = nil) async throws -> Int64 {
        let (message, number, open) = state.withLock { state in
            let message = state.mirror.makeEvent(event, stage: stage, value: value)
            return (message, state.mirror.nextEvent - 1, state.joined)
        }
        if open { try transmit([message]) }
        return number
    }

    /// Sends raw text as one WebSocket text frame (for malformed-input tests).
    public func sendRaw(_ text: String) throws {
        let payload = Array(text.utf8)
        thread.execute { [socket] _ in socket.value?.send(payload) }
    }

    private func transmit(_ messages: [JSON]) throws {
        let payloads = try messages.map { try $0.serializedBytes(.compact) }
        thread.execute { [socket] _ in
            for payload in payloads { socket.value?.send(payload) }
        }
    }

    // MARK: Waiting

    /// Waits until the value at `pointer` in `stage` equals `expected`.
    public func waitUntil(
        _ pointer: String, in stage: String, equals expected: JSON, timeout: Duration = .seconds(10)
    ) async throws {
        let parsed = try JSONPointer(pointer)
        try await wait("\(pointer) in stage \"\(stage)\" to equal \(describe(expected))", timeout: timeout) {
            $0.mirror.documents[stage]?.value(at: parsed) == expected
        }
    }

    /// Waits until every event sent has been acknowledged (applied or refused). Throws
    /// ``TestClientError/connectionFailed(_:)`` at once when the socket ends first: no
    /// acknowledgement can come on it.
    public func waitUntilAcknowledged(timeout: Duration = .seconds(10)) async throws {
        try await wait("every event to be acknowledged", timeout: timeout) {
            $0.mirror.unacknowledged.isEmpty || !$0.isOpen
        }
        let waiting = observation.mirror.unacknowledged.count
        guard waiting == 0 else {
            throw TestClientError.connectionFailed("the connection ended with \(waiting) event(s) unacknowledged")
        }
    }

    /// Waits for an error message with `code`, and returns it.
    @discardableResult
    public func waitForError(_ code: String, timeout: Duration = .seconds(10)) async throws
        -> ClientMirror.ReceivedError
    {
        try await wait("an error \"\(code)\"", timeout: timeout) { $0.mirror.errors.contains { $0.code == code } }
        return state.withLock { $0.mirror.errors.last { $0.code == code }! }
    }

    /// Waits until the server closes the connection, and returns its close frame
    /// (nil when the socket ended without one).
    @discardableResult
    public func waitForClose(timeout: Duration = .seconds(10)) async throws -> (code: UInt16, reason: String)? {
        try await wait("the connection to close", timeout: timeout) { !$0.isOpen && $0.socketsEnded > 0 }
        return state.withLock { $0.closeFrame }
    }

    /// Waits until `condition` holds for the client's observation.
    public func wait(
        _ description: String, timeout: Duration = .seconds(10),
        until condition: @escaping @Sendable (Observation) -> Bool
    ) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let id: Int? = state.withLock { state in
                if condition(state.observation) { return nil }
                let id = state.nextWaiter
                state.nextWaiter += 1
                state.waiters[id] = Waiter(description: description, isSatisfied: condition, continuation: continuation)
                return id
            }
            guard let id else {
                continuation.resume()
                return
            }
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.expire(id, after: timeout)
            }
        }
    }

    private func expire(_ id: Int, after timeout: Duration) {
        let expired = state.withLock { state -> (Waiter, Observation)? in
            guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
            return (waiter, state.observation)
        }
        guard let (waiter, observation) = expired else { return }
        waiter.continuation.resume(
            throwing: TestClientError.timedOut(waiting: waiter.description, after: timeout, observation))
    }

    private func waitUntilJoined(timeout: Duration, socketsEndedBefore: Int = 0) async throws {
        // Joined, with the mounts that follow `joined` applied.
        try await wait("the session to join", timeout: timeout) {
            ($0.joined && $0.mirror.isReady) || $0.socketsEnded > socketsEndedBefore
        }
        let observation = self.observation
        guard observation.joined else {
            throw TestClientError.connectionFailed(
                observation.connectionError ?? observation.closeFrame.map { "closed with \($0.code) \($0.reason)" }
                    ?? "closed before joining")
        }
    }

    // MARK: Connection control

    /// Drops the socket abruptly (no close frame), as a network failure would.
    public func drop() {
        thread.execute { [socket] _ in socket.value?.drop() }
    }

    /// Closes the socket with a close frame (1000).
    public func close() {
        thread.execute { [socket] _ in socket.value?.close(code: 1000, reason: "test client closing") }
    }

    /// Opens a new socket and resumes the session with its token and last applied
    /// sequence number; unacknowledged events are re-sent after `joined`. With
    /// `restoring`, the join also says what the page shows, for a server that lost the
    /// session to rebuild it (``ClientMirror/rebuilt`` then says what came back).
    public func resume(restoring: ClientMessage.Restore? = nil, timeout: Duration = .seconds(10)) async throws {
        try await wait("the previous socket to end", timeout: timeout) { !$0.isOpen }
        let endedBefore = state.withLock { state in
            state.restore = restoring
            state.joined = false
            state.closeFrame = nil
            state.connectionError = nil
            return state.socketsEnded
        }
        openSocket()
        try await waitUntilJoined(timeout: timeout, socketsEndedBefore: endedBefore)
    }

    /// Resumes like ``resume(timeout:)`` on a network that keeps failing: when a new
    /// socket ends before the session is back (joined, every mount applied), opens
    /// another, up to `attempts` sockets in all. Returns once a socket is open on the
    /// resumed session; throws the last failure otherwise.
    public func resume(
        attempts: Int, restoring: ClientMessage.Restore? = nil, timeout: Duration = .seconds(10)
    ) async throws {
        for attempt in 1...max(1, attempts) {
            do {
                try await resume(restoring: restoring, timeout: timeout)
                if observation.isOpen { return }
            } catch let error as TestClientError where error.kind == .connectionFailed {
                guard attempt < attempts else { throw error }
            }
        }
        throw TestClientError.connectionFailed("the socket ended right after each of \(attempts) resumes")
    }

    /// Stops reading from the socket, so the server's writes back up.
    public func pauseReading() {
        thread.execute { [socket] _ in socket.value?.pauseReading() }
    }

    /// Reads again after ``pauseReading()``.
    public func resumeReading() {
        thread.execute { [socket] _ in socket.value?.resumeReading() }
    }

    private func openSocket() {
        thread.execute { [self] loop in
            let connection = WebSocketClientConnection(on: loop, delegate: self)
            // In place before `connect`, which may already report a failure.
            socket.value = connection
            connection.connect(
                host: "127.0.0.1", port: port, path: "/ws", origin: origin, subprotocol: subprotocol, cookie: cookie)
        }
    }

    private func notifyWaiters() {
        let ready = state.withLock { state -> [Waiter] in
            let observation = state.observation
            let satisfied = state.waiters.filter { $0.value.isSatisfied(observation) }
            for id in satisfied.keys { state.waiters[id] = nil }
            return Array(satisfied.values)
        }
        for waiter in ready { waiter.continuation.resume() }
    }
}

// MARK: Socket events (client loop thread)

extension TestClient: WebSocketClientDelegate {
    /// Joins (unless told not to) as soon as the socket is open.
    package func opened(_ connection: WebSocketClientConnection) {
        let join = state.withLock { state -> JSON? in
            state.isOpen = true
            guard state.autoJoin else { return nil }
            return state.mirror.joinMessage(path: path, restore: state.restore)
        }
        notifyWaiters()
        if let join, let payload = try? join.serializedBytes(.compact) { connection.send(payload) }
    }

    /// Applies a server message to the mirror and answers it (acks, re-sent events).
    package func received(_ bytes: UnsafeRawBufferPointer, isBinary: Bool, on connection: WebSocketClientConnection) {
        guard connection === socket.value else { return }
        let message: JSON
        do {
            message = try JSON.parse(bytes)
        } catch {
            state.withLock { $0.connectionError = "the server sent invalid JSON: \(error)" }
            notifyWaiters()
            return
        }
        let replies = state.withLock { state -> [JSON] in
            let before = state.mirror.lastSeq
            var replies = state.mirror.apply(message)
            if message[.type]?.stringValue == Wire.Server.joined.rawValue { state.joined = true }
            if state.mirror.lastSeq > before {
                replies.append(Wire.Client.ack.message([.seq: .int(state.mirror.lastSeq)]))
            }
            return replies
        }
        for reply in replies {
            if let payload = try? reply.serializedBytes(.compact) { connection.send(payload) }
        }
        notifyWaiters()
    }

    /// Records the server's close frame.
    package func peerClosed(code: UInt16, reason: String, on connection: WebSocketClientConnection) {
        guard connection === socket.value else { return }
        state.withLock { $0.closeFrame = (code, reason) }
    }

    /// Counts the socket as ended, with why it failed if it did.
    package func ended(_ connection: WebSocketClientConnection, error: WebSocketClientError?) {
        guard connection === socket.value else { return }
        state.withLock { state in
            state.isOpen = false
            state.socketsEnded += 1
            if let error { state.connectionError = error.description }
        }
        notifyWaiters()
    }
}

func describe(_ value: JSON) -> String {
    (try? value.serialized()) ?? "\(value)"
}
