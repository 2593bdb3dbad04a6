import FootlightJSON

/// Why a test client gave up.
///
/// Match on ``kind`` (`error.kind == .timedOut`): its static members can grow without
/// breaking a `switch` that has a `default`. ``description`` says what the client saw.
public struct TestClientError: Error, CustomStringConvertible {
    /// The class of failure.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case timedOut, connectionFailed
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// What the client waited for did not come in time.
        public static let timedOut = Kind(.timedOut)
        /// The connection could not be made, or ended while the client waited.
        public static let connectionFailed = Kind(.connectionFailed)

        public var description: String { value.rawValue }
    }

    public let kind: Kind
    /// What happened, for people.
    public let message: String
    /// What the client had seen when it timed out.
    public let observation: TestClient.Observation?

    /// The client waited `timeout` for `waiting` in vain; `observation` is what it saw.
    public static func timedOut(waiting: String, after timeout: Duration, _ observation: TestClient.Observation)
        -> TestClientError
    {
        let documents = observation.mirror.documents.sorted { $0.key < $1.key }
            .map { "\($0.key): \(describe($0.value))" }.joined(separator: "; ")
        let message = """
            timed out after \(timeout) waiting for \(waiting); \
            open: \(observation.isOpen), joined: \(observation.joined), last seq: \(observation.mirror.lastSeq), \
            unacknowledged events: \(observation.mirror.unacknowledged.count), \
            errors: \(observation.mirror.errors.map(\.code)), documents: \(documents.isEmpty ? "none" : documents)
            """
        return TestClientError(kind: .timedOut, message: message, observation: observation)
    }

    /// The connection failed or ended, for `reason`.
    public static func connectionFailed(_ reason: String) -> TestClientError {
        TestClientError(kind: .connectionFailed, message: reason, observation: nil)
    }

    public var description: String {
        kind == .connectionFailed ? "could not connect: \(message)" : message
    }
}
