/// What a ``WebSocketClientConnection`` reports. Every method runs on the connection's
/// loop thread, inside a libwebsockets callback: it must not block, and it may call
/// the connection's methods (send, close, drop, …) directly.
package protocol WebSocketClientDelegate: AnyObject {
    /// The handshake finished: the connection is open.
    func opened(_ connection: WebSocketClientConnection)

    /// A whole message arrived, its fragments already joined. `message` is valid only
    /// during the call.
    func received(_ message: UnsafeRawBufferPointer, isBinary: Bool, on connection: WebSocketClientConnection)

    /// The server sent a close frame (`code` 1005 and an empty `reason` when the frame
    /// carried no status). ``ended(_:error:)`` follows.
    func peerClosed(code: UInt16, reason: String, on connection: WebSocketClientConnection)

    /// The socket can take a frame, after ``WebSocketClientConnection/requestWritable()``
    /// and once the send queue is empty: write at most one message with
    /// ``WebSocketClientConnection/write(_:isBinary:)``, and request again to write more.
    /// For senders that build each message at the last moment (the load generator
    /// stamps its send time here).
    func writable(_ connection: WebSocketClientConnection)

    /// The connection is gone, the last call for it: closed by either side, dropped, or
    /// never opened. `error` says why when it failed.
    func ended(_ connection: WebSocketClientConnection, error: WebSocketClientError?)
}

extension WebSocketClientDelegate {
    /// Ignores the server's close frame.
    package func peerClosed(code: UInt16, reason: String, on connection: WebSocketClientConnection) {}

    /// Writes nothing: a delegate that only uses the send queue never requests this.
    package func writable(_ connection: WebSocketClientConnection) {}
}
