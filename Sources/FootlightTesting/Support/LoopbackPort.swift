import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Ports on 127.0.0.1 for processes a test starts itself (`redis-server`, a cluster).
public enum LoopbackPort {
    /// A TCP port on 127.0.0.1 that was free a moment ago: a probe socket bound to port
    /// 0 is given one by the kernel and released.
    public static func free() throws(LoopbackSocketError) -> Int {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { throw .socket("cannot open a probe socket: errno \(errno)") }
        defer { close(probe) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(probe, raw, length) == 0 && getsockname(probe, raw, &length) == 0
            }
        }
        guard bound else { throw .socket("cannot bind a probe socket to 127.0.0.1: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
