import CLibWebSockets
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Accepts connections on the listening socket on its own thread and hands each one
/// to a service loop, round-robin, where libwebsockets adopts it. Connections past
/// the cap are closed at once.
final class Acceptor: Sendable {
    private let socket: ListeningSocket
    private let loops: [ServiceLoop]
    private let maximumConnections: Int
    private let logger: Logger
    /// Accepted sockets not yet destroyed by libwebsockets.
    let openConnections = Atomic<Int>(0)
    /// Connections refused because of the cap (for tests and logs).
    let refusedConnections = Atomic<Int>(0)
    private let wake: (read: Int32, write: Int32)
    private let done = DispatchSemaphore(value: 0)

    init(socket: ListeningSocket, loops: [ServiceLoop], maximumConnections: Int, logger: Logger) throws(ServerError) {
        self.socket = socket
        self.loops = loops
        self.maximumConnections = maximumConnections
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
                let fd = accept(socket.descriptor, nil, nil)
                if fd < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    if errno == EMFILE || errno == ENFILE {
                        logger.error("out of file descriptors; not accepting for 100 ms")
                        usleep(100_000)
                    }
                    break
                }
                setDescriptorFlags(fd)
                if openConnections.load(ordering: .relaxed) >= maximumConnections {
                    refusedConnections.add(1, ordering: .relaxed)
                    logger.warning("connection refused: \(maximumConnections) connections are open")
                    close(fd)
                    continue
                }
                openConnections.add(1, ordering: .relaxed)
                let loop = loops[next % loops.count]
                next &+= 1
                let handedOver = loop.execute { [self] in adopt(fd, on: loop) }
                if !handedOver {
                    openConnections.subtract(1, ordering: .relaxed)
                    close(fd)
                }
            }
        }
        done.signal()
    }

    private func adopt(_ fd: Int32, on loop: ServiceLoop) {
        loop.assertInLoop()
        guard let vhost = loop.vhost, let wsi = lws_adopt_socket_vhost(vhost, fd) else {
            // lws closes the descriptor itself when adoption fails.
            openConnections.subtract(1, ordering: .relaxed)
            logger.error("libwebsockets could not adopt an accepted socket")
            return
        }
        loop.adopted(wsi)
    }
}
