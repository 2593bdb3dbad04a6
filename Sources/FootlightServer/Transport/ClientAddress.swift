#if canImport(Glibc)
    import Glibc
#endif

/// The IP address a connection comes from; the per-client connection cap counts by
/// it. An IPv4 address mapped into IPv6 (`::ffff:a.b.c.d`) counts as the IPv4 one.
struct ClientAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6).
    let bytes: [UInt8]

    /// The address of `storage` as `accept` filled it, or nil for another family.
    init?(_ storage: sockaddr_storage) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            bytes = withUnsafeBytes(of: address.sin_addr) { Array($0) }
        case AF_INET6:
            let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            let raw = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
            let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
            bytes = raw.starts(with: mappedPrefix) ? Array(raw.suffix(4)) : raw
        default:
            return nil
        }
    }

    var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        guard written != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
