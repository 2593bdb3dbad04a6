import CLibWebSockets

/// A text frame ready for `lws_write`: `LWS_PRE` bytes of headroom, then the payload.
struct OutboundFrame: Sendable {
    /// Headroom libwebsockets needs in front of every payload it writes.
    static let headroom = Int(footlight_lws_pre())

    /// Headroom followed by the payload.
    var storage: [UInt8]
    /// Sent as a binary frame instead of text (only the echo endpoint does).
    var isBinary = false

    /// The payload's length in bytes.
    var count: Int { storage.count - Self.headroom }

    /// Copies `payload` behind fresh headroom.
    init(payload: some Collection<UInt8>) {
        var storage = [UInt8](repeating: 0, count: Self.headroom)
        storage.reserveCapacity(Self.headroom + payload.count)
        storage.append(contentsOf: payload)
        self.storage = storage
    }

    /// Copies an encoded message behind fresh headroom.
    init(_ message: WireMessage) {
        self.init(payload: message.bytes)
    }

    /// Takes bytes that already start with `headroom` spare bytes.
    init(storageWithHeadroom storage: [UInt8]) {
        precondition(storage.count >= Self.headroom, "a frame's storage must start with LWS_PRE bytes of headroom")
        self.storage = storage
    }

    /// The payload bytes.
    var payload: ArraySlice<UInt8> { storage[Self.headroom...] }
}
