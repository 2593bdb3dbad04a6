/// A failure talking to Redis.
///
/// Match on ``kind`` (`error.kind == .reply`): its static members can grow without
/// breaking a `switch` that has a `default`. ``description`` is the readable message.
public struct RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case connect, io, protocolViolation, reply
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The connection could not be made.
        public static let connect = Kind(.connect)
        /// Reading or writing failed, timed out or the server closed the connection.
        public static let io = Kind(.io)
        /// The server sent something that is not the Redis protocol, or not the reply
        /// the command expects.
        public static let protocolViolation = Kind(.protocolViolation)
        /// The server answered the command with an error reply.
        public static let reply = Kind(.reply)

        public var description: String { value.rawValue }
    }

    /// What went wrong.
    public let kind: Kind
    /// A readable explanation.
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
