/// Follows one direction of a WebSocket connection (the HTTP upgrade, then RFC 6455
/// frames) just far enough to say where the bytes seen so far end: inside the
/// handshake, between two frames, or inside a frame. The ``FaultProxy`` uses it to
/// report where its cuts land.
struct FrameScanner {
    /// Where the bytes scanned so far end.
    enum Position: Sendable {
        /// Inside the HTTP upgrade request or response.
        case handshake
        /// Right after a whole frame (or the handshake).
        case frameBoundary
        /// Inside a frame's header or payload.
        case midFrame
    }

    private var inHandshake = true
    /// The last four bytes of the handshake, to find its blank line.
    private var handshakeTail: UInt32 = 0
    /// The current frame's header bytes, while it is incomplete.
    private var header: [UInt8] = []
    /// The header's full length, once its second byte is known.
    private var headerLength = 2
    private var payloadLeft: UInt64 = 0

    var position: Position {
        if inHandshake { return .handshake }
        return header.isEmpty && payloadLeft == 0 ? .frameBoundary : .midFrame
    }

    mutating func scan(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while index < bytes.count {
            if inHandshake {
                handshakeTail = handshakeTail << 8 | UInt32(bytes[index])
                index += 1
                if handshakeTail == 0x0D0A_0D0A { inHandshake = false }  // "\r\n\r\n"
            } else if payloadLeft > 0 {
                let skipped = Int(min(payloadLeft, UInt64(bytes.count - index)))
                payloadLeft -= UInt64(skipped)
                index += skipped
            } else {
                header.append(bytes[index])
                index += 1
                if header.count == 2 {
                    let length = header[1] & 0x7F
                    let masked = header[1] & 0x80 != 0
                    headerLength = 2 + (length == 126 ? 2 : length == 127 ? 8 : 0) + (masked ? 4 : 0)
                }
                if header.count >= 2, header.count == headerLength {
                    payloadLeft = payloadLength()
                    header.removeAll(keepingCapacity: true)
                }
            }
        }
    }

    /// The payload length a complete header declares.
    private func payloadLength() -> UInt64 {
        let short = UInt64(header[1] & 0x7F)
        let extended = short == 126 ? 2 : short == 127 ? 8 : 0
        guard extended > 0 else { return short }
        return header[2..<(2 + extended)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
