import CLibWebSockets
import Footlight
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Accepts connections on the listening socket on its own thread and hands each one
/// to a service loop, round-robin, where libwebsockets adopts it. Connections past
/// the global cap, or past the cap for their client's address, are refused at once.
final class Acceptor: Sendable {
    private let socket: ListeningSocket
    private let loops: [ServiceLoop]
    private let maximumConnections: Int
    private let maximumPerClient: Int
    private let logger: Logger
    /// Accepted sockets not yet destroyed by libwebsockets.
    let openConnections = Atomic<Int>(0)
    /// Accepted sockets not yet destroyed, by client address (no entry at zero).
    private let openByClient = Locked<[ClientAddress: Int]>([:])
    /// Connections refused because of either cap (for tests and logs).
    let refusedConnections = Atomic<Int>(0)
    private let wake: (read: Int32, write: Int32)
    private let done = DispatchSemaphore(value: 0)

    /// Called when the last open connection closes, however it closed (a shutdown waits
    /// on it).
    private let allClosed: @Sendable () -> Void

    init(
        socket: ListeningSocket, loops: [ServiceLoop], maximumConnections: Int, maximumPerClient: Int, logger: Logger,
        allClosed: @escaping @Sendable () -> Void = {}
    ) throws(ServerError) {
        self.socket = socket
        self.allClosed = allClosed
        self.loops = loops
        self.maximumConnections = maximumConnections
        self.maximumPerClient = maximumPerClient
        self.logger = logger
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw ServerError.transport("pipe(): \(String(cString: strerror(errno)))")
        }
        fds.forEach(setDescriptorFlags)
        wake = (fds[0], fds[1])
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "footlight-acceptor"
        thread.start()
    }

    /// Stops accepting and closes the listening socket.
    func stop() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        done.wait()
        socket.close()
        close(wake.read)
        close(wake.write)
    }

    private func run() {
        var next = 0
        var descriptors = [
            pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                logger.error("poll() on the listening socket failed: \(String(cString: strerror(errno)))")
                break
            }
            if descriptors[1].revents != 0 { break }
            while true {
                var storage = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let fd = withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(socket.descriptor, $0, &length) }
                }
                if fd < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    if errno == EMFILE || errno == ENFILE {
                        logger.error("out of file descriptors; not accepting for 100 ms")
                        usleep(100_000)
                    }
                    break
                }
                setDescriptorFlags(fd)
                guard let client = ClientAddress(storage) else {
                    close(fd)
                    continue
                }
                if let reason = admit(client) {
                    refusedConnections.add(1, ordering: .relaxed)
                    logger.warning("connection from \(client) refused: \(reason)")
                    refuse(fd, reason: reason)
                    continue
                }
                let loop = loops[next % loops.count]
                next &+= 1
                let handedOver = loop.execute { [self] in adopt(fd, from: client, on: loop) }
                if !handedOver {
                    closed(client)
                    close(fd)
                }
            }
        }
        done.signal()
    }

    /// Counts a connection from `client` as open, or says why it may not open.
    private func admit(_ client: ClientAddress) -> String? {
        if openConnections.load(ordering: .relaxed) >= maximumConnections {
            return "\(maximumConnections) connections are open (the server's cap)"
        }
        let admitted = openByClient.withLock { open -> Bool in
            let count = open[client, default: 0]
            guard count < maximumPerClient else { return false }
            open[client] = count + 1
            return true
        }
        guard admitted else {
            return "\(maximumPerClient) connections from this address are open (the per-client cap)"
        }
        openConnections.add(1, ordering: .relaxed)
        return nil
    }

    /// Counts a connection from `client` as closed (libwebsockets destroyed it, or it
    /// never reached a loop).
    func closed(_ client: ClientAddress) {
        let open = openConnections.subtract(1, ordering: .relaxed).newValue
        openByClient.withLock { open in
            let count = open[client, default: 1] - 1
            open[client] = count > 0 ? count : nil
        }
        if open == 0 { allClosed() }
    }

    /// Answers a refused connection with a 503 it can show, then closes it. What the
    /// client already sent is read first (without waiting), so closing does not reset
    /// the connection before the answer is read.
    private func refuse(_ fd: Int32, reason: String) {
        var scratch = [UInt8](repeating: 0, count: 4096)
        var reads = 0
        while reads < 16, recv(fd, &scratch, scratch.count, Int32(MSG_DONTWAIT)) > 0 { reads += 1 }
        let body = "Footlight refused the connection: \(reason).\n"
        let answer =
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nRetry-After: 5\r\nConnection: close\r\n\r\n\(body)"
        _ = answer.withCString { send(fd, $0, strlen($0), Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
        shutdown(fd, Int32(SHUT_WR))
        close(fd)
    }

    private func adopt(_ fd: Int32, from client: ClientAddress, on loop: ServiceLoop) {
        loop.preconditionInLoop()
        guard let vhost = loop.vhost, let wsi = lws_adopt_socket_vhost(vhost, fd) else {
            // lws closes the descriptor itself when adoption fails.
            closed(client)
            logger.error("libwebsockets could not adopt an accepted socket")
            return
        }
        loop.adopted(wsi, from: client)
    }
}
