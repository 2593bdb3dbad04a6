#if canImport(Glibc)
    import Glibc
#endif

/// The POSIX socket calls the ``FaultProxy`` makes, on 127.0.0.1 only.
enum ProxySockets {
    /// A non-blocking listening socket on 127.0.0.1 and an ephemeral port.
    static func listen() throws(LoopbackSocketError) -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else {
            throw .socket("the fault proxy could not listen: socket(): \(String(cString: strerror(errno)))")
        }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(descriptor, 4096) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw .socket("the fault proxy could not listen on 127.0.0.1: \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        makeNonBlocking(descriptor)
        return (descriptor, Int(UInt16(bigEndian: actual.sin_port)))
    }

    /// Starts a non-blocking connection to 127.0.0.1:`port`; it is complete when the
    /// descriptor polls writable and ``connectionError(_:)`` is 0. Nil when it failed
    /// at once.
    static func startConnecting(to port: Int) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        makeNonBlocking(descriptor)
        setNoDelay(descriptor)
        var address = loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 || errno == EINPROGRESS else {
            Glibc.close(descriptor)
            return nil
        }
        return descriptor
    }

    /// The pending error of a socket (0: none), after a non-blocking connect.
    static func connectionError(_ descriptor: Int32) -> Int32 {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return errno }
        return error
    }

    static func makeNonBlocking(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
    }

    /// Small writes go out at once, so a cut's last bytes are not held back.
    static func setNoDelay(_ descriptor: Int32) {
        var one: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Closes a socket; with `reset`, the peer gets an RST instead of a FIN.
    static func close(_ descriptor: Int32, reset: Bool) {
        if reset {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
        Glibc.close(descriptor)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
