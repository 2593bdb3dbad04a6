#if canImport(Glibc)
    import Glibc
#endif

/// A TCP listening socket bound to exactly one address (never a wildcard unless
/// that is the address given): the server owns it rather than libwebsockets, whose
/// 4.1.6 binds every interface when IPv6 is on (warmcat/libwebsockets#2290).
final class ListeningSocket: Sendable {
    let descriptor: Int32
    /// The port actually bound (the kernel's choice when 0 was asked for).
    let port: Int

    init(host: String, port: Int, backlog: Int32 = 1024) throws(ServerError) {
        var address = sockaddr_storage()
        var length: socklen_t
        let family: Int32
        var v4 = in_addr()
        var v6 = in6_addr()
        guard (0...65535).contains(port) else { throw ServerError.configuration("port \(port) is out of range") }
        if inet_pton(AF_INET, host, &v4) == 1 {
            family = AF_INET
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &address) { raw in
                let sin = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                sin.pointee.sin_family = sa_family_t(AF_INET)
                sin.pointee.sin_port = in_port_t(UInt16(port).bigEndian)
                sin.pointee.sin_addr = v4
            }
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            family = AF_INET6
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &address) { raw in
                let sin6 = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                sin6.pointee.sin6_family = sa_family_t(AF_INET6)
                sin6.pointee.sin6_port = in_port_t(UInt16(port).bigEndian)
                sin6.pointee.sin6_addr = v6
            }
        } else {
            throw ServerError.configuration("host \"\(host)\" is not an IPv4 or IPv6 address")
        }
        let descriptor = Glibc.socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError.bind("socket(): \(String(cString: strerror(errno)))") }
        setDescriptorFlags(descriptor)
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 {
            // Bind the IPv6 address alone, not the IPv4-mapped space with it.
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, backlog) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw ServerError.bind("cannot listen on \(host):\(port): \(reason)")
        }
        var actual = sockaddr_storage()
        var actualLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &actualLength) }
        }
        let boundPort = withUnsafeBytes(of: &actual) { raw -> UInt16 in
            family == AF_INET
                ? raw.load(as: sockaddr_in.self).sin_port : raw.load(as: sockaddr_in6.self).sin6_port
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: boundPort))
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}

/// Makes a descriptor non-blocking and close-on-exec (what SOCK_NONBLOCK and
/// SOCK_CLOEXEC would do; accept4 and pipe2 are not visible to Swift's Glibc).
func setDescriptorFlags(_ descriptor: Int32) {
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
}
