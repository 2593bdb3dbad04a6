/// A socket call on 127.0.0.1 failed: a ``FaultProxy`` could not start, or
/// ``LoopbackPort/free()`` could not have a port.
///
/// Match on ``kind`` (`error.kind == .socket`): its static members can grow without
/// breaking a `switch` that has a `default`. ``description`` says what failed.
public struct LoopbackSocketError: Error, CustomStringConvertible {
    /// The class of failure.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case socket
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// A socket call (or the pipe beside it) failed.
        public static let socket = Kind(.socket)

        public var description: String { value.rawValue }
    }

    public let kind: Kind
    /// What failed and why, for people.
    public let message: String

    /// A socket call failed: `message` says which, for what, and the system's reason.
    static func socket(_ message: String) -> LoopbackSocketError {
        LoopbackSocketError(kind: .socket, message: message)
    }

    public var description: String { message }
}
