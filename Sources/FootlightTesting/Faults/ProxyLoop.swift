#if canImport(Glibc)
    import Glibc
#endif

/// The ``FaultProxy``'s thread: one `poll` loop over the listening socket, the wake
/// pipe and every connection's two sockets, until stopped or its deadline passes.
final class ProxyLoop {
    private let listener: Int32
    private let upstreamPort: Int
    private let policy: FaultProxy.CutPolicy
    private var random: Random
    private let deadline: ContinuousClock.Instant
    private let control: ProxyControl
    private var connections: [ProxiedConnection] = []
    private var cutAllRequestsSeen = 0
    private var buffer = [UInt8](repeating: 0, count: 16 << 10)

    init(
        listener: Int32, upstreamPort: Int, policy: FaultProxy.CutPolicy, random: any RandomNumberGenerator,
        deadline: ContinuousClock.Instant, control: ProxyControl
    ) {
        self.listener = listener
        self.upstreamPort = upstreamPort
        self.policy = policy
        self.random = Random(base: random)
        self.deadline = deadline
        self.control = control
    }

    func run() {
        while ContinuousClock.now < deadline {
            let (stop, cutAllRequests) = control.state.withLock { ($0.stopRequested, $0.cutAllRequests) }
            if stop { break }
            if cutAllRequests != cutAllRequestsSeen {
                cutAllRequestsSeen = cutAllRequests
                cutAll()
            }
            var descriptors = pollSet()
            let ready = poll(&descriptors, nfds_t(descriptors.count), 100)
            if ready < 0, errno != EINTR { break }
            guard ready > 0 else { continue }
            if descriptors[1].revents != 0 { drainWakePipe() }
            // The connections polled, before any accepted now is appended.
            for (index, connection) in connections.enumerated() {
                handle(
                    connection, client: descriptors[2 + 2 * index].revents, server: descriptors[3 + 2 * index].revents)
            }
            connections.removeAll { $0.isClosed }
            if descriptors[0].revents != 0 { acceptConnections() }
        }
        for connection in connections { connection.close(reset: false) }
        connections.removeAll()
        close(listener)
        control.finished.signal()
    }

    /// The generator the proxy was given, as a concrete type the standard library's
    /// `random(in:using:)` accepts.
    private struct Random: RandomNumberGenerator {
        var base: any RandomNumberGenerator
        mutating func next() -> UInt64 { base.next() }
    }

    /// The listener, the wake pipe, then each connection's client and server sockets.
    private func pollSet() -> [pollfd] {
        var descriptors = [
            pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
            pollfd(fd: control.wake.read, events: Int16(POLLIN), revents: 0),
        ]
        descriptors.reserveCapacity(2 + 2 * connections.count)
        for connection in connections {
            var client: Int32 = 0
            var server: Int32 = 0
            if connection.wantsToRead(.clientToServer) { client |= Int32(POLLIN) }
            if connection.hasPending(.serverToClient) { client |= Int32(POLLOUT) }
            if connection.wantsToRead(.serverToClient) { server |= Int32(POLLIN) }
            if connection.connecting || connection.hasPending(.clientToServer) { server |= Int32(POLLOUT) }
            descriptors.append(pollfd(fd: connection.client, events: Int16(client), revents: 0))
            descriptors.append(pollfd(fd: connection.server, events: Int16(server), revents: 0))
        }
        return descriptors
    }

    private func drainWakePipe() {
        var scratch = [UInt8](repeating: 0, count: 64)
        var reads = 0
        while reads < 16, read(control.wake.read, &scratch, scratch.count) > 0 { reads += 1 }
    }

    /// Accepts what is waiting (at most 256 a turn) and starts each one's connection to
    /// the server.
    private func acceptConnections() {
        for _ in 0..<256 {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            ProxySockets.makeNonBlocking(client)
            ProxySockets.setNoDelay(client)
            guard let server = ProxySockets.startConnecting(to: upstreamPort) else {
                close(client)
                continue
            }
            let bytesBeforeCut: Int? =
                switch policy {
                case .never: nil
                case .afterBytes(let range): Int.random(in: range, using: &random)
                }
            connections.append(ProxiedConnection(client: client, server: server, bytesBeforeCut: bytesBeforeCut))
            control.record { $0.connections += 1 }
        }
    }

    private func handle(_ connection: ProxiedConnection, client: Int16, server: Int16) {
        let failure = Int16(POLLERR | POLLHUP)
        if connection.connecting {
            guard server != 0 else { return }
            guard ProxySockets.connectionError(connection.server) == 0 else {
                connection.close(reset: false)
                return
            }
            connection.connecting = false
            return
        }
        for direction in ProxiedConnection.Direction.allCases where !connection.isClosed {
            let (source, destination) = direction == .clientToServer ? (client, server) : (server, client)
            if destination & Int16(POLLOUT) != 0 { connection.flush(direction) }
            if source & (Int16(POLLIN) | failure) != 0, connection.wantsToRead(direction) {
                let cut = connection.forward(direction, buffer: &buffer) { count in
                    control.record { $0.bytesForwarded += count }
                }
                if let cut { record(cut) }
            } else if source & failure != 0, source & Int16(POLLIN) == 0 {
                connection.close(reset: false)
            }
        }
        if connection.cutIsDue { cut(connection) }
    }

    private func record(_ cut: ProxiedConnection.Cut) {
        control.record { statistics in
            switch cut.position {
            case .handshake: statistics.cutsInHandshake += 1
            case .frameBoundary: statistics.cutsBetweenFrames += 1
            case .midFrame: statistics.cutsMidFrame += 1
            }
            switch cut.direction {
            case .clientToServer: statistics.cutsClientToServer += 1
            case .serverToClient: statistics.cutsServerToClient += 1
            }
        }
    }

    /// Closes both sockets, with a FIN or a reset at random.
    private func cut(_ connection: ProxiedConnection) {
        guard !connection.isClosed else { return }
        let reset = Bool.random(using: &random)
        connection.close(reset: reset)
        control.record { statistics in
            statistics.cuts += 1
            if reset { statistics.resets += 1 }
        }
    }

    private func cutAll() {
        for connection in connections { cut(connection) }
        connections.removeAll()
    }
}
