/// Why the server could not start or keep running.
///
/// Match on ``kind`` (`error.kind == .bind`): its static members can grow without
/// breaking a `switch` that has a `default`. ``description`` is the readable message.
public struct ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case configuration, bind, transport
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The configuration is invalid.
        public static let configuration = Kind(.configuration)
        /// The listening socket could not be had.
        public static let bind = Kind(.bind)
        /// libwebsockets failed.
        public static let transport = Kind(.transport)

        public var description: String { value.rawValue }
    }
    /// The class of failure.
    public let kind: Kind
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
