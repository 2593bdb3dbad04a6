/// A failure talking to Redis.
public struct RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The connection could not be made.
        case connect
        /// Reading or writing failed, timed out or the server closed the connection.
        case io
        /// The server sent something that is not the Redis protocol, or not the reply
        /// the command expects.
        case protocolViolation
        /// The server answered the command with an error reply.
        case reply
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
