import Footlight
import FootlightRedis
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Polls `condition` every 10 ms for up to `timeout`.
func waitFor(_ what: String, timeout: Duration = .seconds(10), _ condition: () throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else { throw TestTimeout(what: what) }
        try await Task.sleep(for: .milliseconds(10))
    }
}

struct TestTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// A TCP server on 127.0.0.1 that is not Redis: it answers every connection with
/// bytes outside the Redis protocol, or accepts and never answers.
final class FakeRedis: Sendable {
    enum Behaviour: Sendable { case garbage, silent }

    let address: RedisAddress
    private let listener: Int32
    private let accepted = Locked<[Int32]>([])
    private let stopped = Locked(false)
    private let finished = DispatchSemaphore(value: 0)

    /// How many connections were accepted.
    var connections: Int { accepted.withLock { $0.count } }

    init(_ behaviour: Behaviour) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(listener, raw, length) == 0 && getsockname(listener, raw, &length) == 0
                    && listen(listener, 16) == 0
            }
        }
        guard listening else { throw TestTimeout(what: "a listening socket") }
        self.listener = listener
        self.address = RedisAddress(host: "127.0.0.1", port: Int(UInt16(bigEndian: address.sin_port)))
        let thread = Thread { [self] in
            serve(behaviour)
            finished.signal()
        }
        thread.start()
    }

    private func serve(_ behaviour: Behaviour) {
        while !stopped.withLock({ $0 }) {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            accepted.withLock { $0.append(client) }
            if behaviour == .garbage {
                let junk = Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8)
                _ = junk.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        }
    }

    func stop() {
        stopped.withLock { $0 = true }
        finished.wait()
        for client in accepted.withLock({ $0 }) { close(client) }
        close(listener)
    }
}
