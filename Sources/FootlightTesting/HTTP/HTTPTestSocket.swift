#if canImport(Glibc)
    import Glibc
#endif

/// A blocking TCP socket to 127.0.0.1, for tests that read an answer at their own pace
/// (a slow reader): connect, write, read what is there. Closed when released.
public final class HTTPTestSocket: @unchecked Sendable {
    // @unchecked: a socket descriptor, used by one thread at a time (the test's).
    private let descriptor: Int32

    /// Connects to `port`; reads give up after `timeout`. A `receiveBuffer` (bytes) set
    /// before connecting keeps the kernel from taking much of an answer the test has not
    /// read.
    public init(port: Int, timeout: Duration = .seconds(10), receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw HTTPTestError("socket failed") }
        var time = timeval(
            tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw HTTPTestError("connect to port \(port) failed")
        }
    }

    deinit {
        close(descriptor)
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { throw HTTPTestError("send failed after \(sent) bytes") }
            sent += count
        }
    }

    /// Up to `limit` bytes that have come (waiting for some); empty at the end, or when
    /// the read timed out.
    public func read(upTo limit: Int = 65536) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = recv(descriptor, &buffer, limit, 0)
        return count > 0 ? Array(buffer[..<count]) : []
    }

    /// Everything until the server closes (or a read times out).
    public func readToEnd() -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let bytes = read()
            if bytes.isEmpty { return all }
            all += bytes
        }
    }
}
