/// One encoded protocol message: the JSON text of one WebSocket text frame. What the
/// session core hands the transport, and what its replay buffer keeps.
package struct WireMessage: Sendable, Equatable {
    /// The UTF-8 JSON text.
    package let bytes: [UInt8]

    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The payload's length in bytes.
    package var count: Int { bytes.count }
}
