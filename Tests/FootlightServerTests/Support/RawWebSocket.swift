#if canImport(Glibc)
    import Glibc
#endif

/// A WebSocket client on a raw loopback socket that writes exactly the bytes a test
/// asks for: malformed handshakes, unmasked or oversize frames, illegal control frames.
/// Every read is bounded by the socket's receive timeout. ``RawWebSocketServer`` uses
/// it for the server's end too.
final class RawWebSocket {
    let fd: Int32
    private var pending: [UInt8] = []

    /// Connects to 127.0.0.1:`port` (reads time out after `timeout` seconds).
    init(port: Int, timeout: Int = 5) throws {
        fd = try connectLoopback(port: port, timeoutSeconds: timeout)
    }

    /// Takes over a connected socket (closed with this object).
    init(connected fd: Int32) {
        self.fd = fd
    }

    deinit { close(fd) }

    /// A valid Footlight handshake request, with `extraHeaders` ("Name: value\r\n" lines).
    static func handshake(port: Int, path: String = "/ws", extraHeaders: String = "") -> String {
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Protocol: footlight.v1\r\nOrigin: http://127.0.0.1:\(port)\r\n\(extraHeaders)\r\n"
    }

    /// Writes `bytes` (false when the peer has gone).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Reads the response head; its status code, or nil when the server closed first.
    func readStatus() -> Int? {
        guard let head = readHead() else { return nil }
        let parts = head.split(separator: " ", maxSplits: 2)
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    /// Reads an HTTP head up to its blank line (left out), or nil when the peer closed first.
    func readHead() -> String? {
        while pending.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
            guard fill() else { return nil }
        }
        let end = pending.firstRange(of: Array("\r\n\r\n".utf8))!
        let head = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
        pending.removeSubrange(..<end.upperBound)
        return head
    }

    /// Writes one frame. `declaredLength` overrides the payload length in the header
    /// (to announce more than is sent); `masked` false sends it as a server would.
    @discardableResult
    func frame(
        opcode: UInt8, payload: [UInt8] = [], fin: Bool = true, masked: Bool = true, declaredLength: UInt64? = nil
    ) -> Bool {
        let length = declaredLength ?? UInt64(payload.count)
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if length < 126 {
            bytes.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            bytes.append(maskBit | 126)
            bytes += [UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            bytes += (0..<8).reversed().map { UInt8((length >> (8 * UInt64($0))) & 0xFF) }
        }
        if masked {
            let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
            bytes += mask
            bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        } else {
            bytes += payload
        }
        return write(bytes)
    }

    /// Reads frames until a close frame (its code, or 1005 when it carries none) or
    /// the end of the connection (nil). Other frames are skipped; `onText` sees texts.
    func readClose(onText: (String) -> Void = { _ in }) -> UInt16? {
        while let (opcode, payload) = readFrame() {
            if opcode == 0x8 { return payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 1005 }
            if opcode == 0x1 { onText(String(decoding: payload, as: UTF8.self)) }
        }
        return nil
    }

    /// Reads the next whole frame (a client's unmasked), or nil at the end of the connection.
    func readFrame() -> (opcode: UInt8, payload: [UInt8])? {
        guard need(2) else { return nil }
        let opcode = pending[0] & 0x0F
        let masked = pending[1] & 0x80 != 0
        var length = UInt64(pending[1] & 0x7F)
        var header = 2
        if length == 126 {
            guard need(4) else { return nil }
            length = UInt64(pending[2]) << 8 | UInt64(pending[3])
            header = 4
        } else if length == 127 {
            guard need(10) else { return nil }
            length = pending[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
            header = 10
        }
        let mask = header
        if masked { header += 4 }
        guard length < 1 << 24, need(header + Int(length)) else { return nil }
        var payload = Array(pending[header..<header + Int(length)])
        if masked {
            for index in payload.indices { payload[index] ^= pending[mask + index % 4] }
        }
        pending.removeSubrange(..<(header + Int(length)))
        return (opcode, payload)
    }

    /// Whether the server has closed the connection (reads until EOF or the timeout).
    func isClosedByPeer() -> Bool {
        while fill() {}
        var probe: UInt8 = 0
        return recv(fd, &probe, 1, Int32(MSG_DONTWAIT)) == 0
    }

    private func need(_ count: Int) -> Bool {
        while pending.count < count { guard fill() else { return false } }
        return true
    }

    /// Reads what is there into `pending`; false at the end of the connection, on an
    /// error or at the timeout.
    private func fill() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return false }
        pending += buffer[..<count]
        return true
    }
}
