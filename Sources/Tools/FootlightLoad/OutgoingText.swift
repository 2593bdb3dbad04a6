#if canImport(Glibc)
    import Glibc
#endif

/// One outgoing message, built in place in a buffer reused for every message, so
/// building and writing it (``WebSocketClientConnection/write(_:isBinary:)`` copies it
/// behind the transport's headroom) allocates nothing.
final class OutgoingText {
    private let payload: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// Bytes written since the last ``reset()``.
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = capacity
        payload = .allocate(capacity: capacity)
        payload.initialize(repeating: 0, count: capacity)
    }

    deinit {
        payload.deallocate()
    }

    /// The message built so far; valid until the next change.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: payload, count: count) }

    func reset() { count = 0 }

    func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes in
            precondition(count + bytes.count <= capacity, "an outgoing message outgrew its buffer")
            memcpy(payload + count, bytes.baseAddress!, bytes.count)
            count += bytes.count
        }
    }

    func append(_ bytes: [UInt8]) {
        precondition(count + bytes.count <= capacity, "an outgoing message outgrew its buffer")
        bytes.withUnsafeBufferPointer { memcpy(payload + count, $0.baseAddress!, $0.count) }
        count += bytes.count
    }

    /// Appends a non-negative integer in decimal.
    func append(_ number: Int64) {
        let value = UInt64(max(0, number))
        var length = 1
        var rest = value / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        precondition(count + length <= capacity, "an outgoing message outgrew its buffer")
        rest = value
        for offset in stride(from: length - 1, through: 0, by: -1) {
            payload[count + offset] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += length
    }
}
