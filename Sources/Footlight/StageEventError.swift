/// A browser event a stage could not take.
///
/// Match on ``kind`` (`error.kind == .badValue`): its static members can grow without
/// breaking a `switch` that has a `default`. ``description`` is the readable message.
public struct StageEventError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case unknownEvent = "unknown-event"
            case badValue = "bad-value"
            case directorFailed = "director-failed"
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The stage has no binding for this event name.
        public static let unknownEvent = Kind(.unknownEvent)
        /// The event's value is not of the type its input takes.
        public static let badValue = Kind(.badValue)
        /// The event's action (``Stage/on(_:options:perform:)``) threw: the Director failed.
        public static let directorFailed = Kind(.directorFailed)

        /// The failure's code on the wire, as the page is told (the Protocol article's
        /// `error` codes): the server passes it on as it is.
        public var code: String { value.rawValue }
        public var description: String { code }
    }

    public let kind: Kind
    public let event: String
    public let stage: String
    public let message: String

    static func unknownEvent(_ event: String, stage: String, accepted: [String]) -> StageEventError {
        let list = accepted.isEmpty ? "none" : accepted.map { "\"\($0)\"" }.joined(separator: ", ")
        return StageEventError(
            kind: .unknownEvent, event: event, stage: stage,
            message: "stage \"\(stage)\" has no event \"\(event)\" (it accepts \(list))")
    }

    static func badValue(_ event: String, stage: String, _ error: EventValueError) -> StageEventError {
        StageEventError(
            kind: .badValue, event: event, stage: stage,
            message: "event \"\(event)\" of stage \"\(stage)\": \(error)")
    }

    static func directorFailed(_ event: String, stage: String, _ error: any Error) -> StageEventError {
        StageEventError(
            kind: .directorFailed, event: event, stage: stage,
            message: "the Director failed on event \"\(event)\" of stage \"\(stage)\": \(error)")
    }

    public var description: String { message }
}
