/// Why the server could not start or keep running.
public struct ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Kind: Sendable, Equatable {
        case configuration, bind, transport
    }
    private let kind: Kind
    /// A readable explanation.
    public let message: String

    /// The configuration is invalid (an unparsable address, a missing public folder…).
    public static func configuration(_ message: String) -> ServerError {
        ServerError(kind: .configuration, message: message)
    }
    /// The listening socket could not be opened (address in use, permission).
    public static func bind(_ message: String) -> ServerError { ServerError(kind: .bind, message: message) }
    /// libwebsockets refused to create a context or adopt a socket.
    public static func transport(_ message: String) -> ServerError { ServerError(kind: .transport, message: message) }

    public var description: String { message }
}
