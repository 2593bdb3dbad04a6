/// Why a client loop or connection failed.
///
/// Errors compare by kind only, so `error == .connectionFailed` matches whatever
/// libwebsockets said; ``description`` carries that detail.
package struct WebSocketClientError: Error, Equatable, Sendable, CustomStringConvertible {
    private enum Kind: Equatable {
        case contextNotCreated
        case connectNotStarted
        case connectionFailed
        case shortWrite
        case serviceFailed
    }

    private let kind: Kind
    /// What libwebsockets or the client said, for people.
    private let detail: String

    private init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// libwebsockets refused to create the client context.
    package static let contextNotCreated = Self(.contextNotCreated, "libwebsockets could not create the client context")

    /// `lws_client_connect_via_info` refused to start the connection (or the loop has stopped).
    package static let connectNotStarted = Self(.connectNotStarted, "lws_client_connect_via_info failed")

    /// The connection failed before its handshake finished: refused, reset, or the
    /// server answered the upgrade with something else.
    package static let connectionFailed = Self(.connectionFailed, "connection failed")

    /// The socket took fewer bytes than a frame had; the connection was closed.
    package static let shortWrite = Self(.shortWrite, "lws_write wrote less than the frame")

    /// `lws_service` failed; the loop cannot go on.
    package static let serviceFailed = Self(.serviceFailed, "lws_service failed")

    /// The same kind of error with another detail.
    func with(detail: String) -> Self { Self(kind, detail) }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }

    package var description: String { detail }
}
