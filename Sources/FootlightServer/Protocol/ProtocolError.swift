/// A message from a client that the protocol refuses. Sent back as an `error`
/// message with ``code`` and ``message``; the connection and session stay up.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The machine-readable code sent to the client (see the Protocol article).
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The text is not JSON (or has duplicate keys, or is nested too deep).
        public static let malformedJSON = Code(rawValue: "malformed-json")
        /// The JSON is not a message of protocol v1 (wrong type, missing or bad member).
        public static let badMessage = Code(rawValue: "bad-message")
        /// The client speaks a protocol version this server does not.
        public static let unsupportedVersion = Code(rawValue: "unsupported-version")
        /// An event or ack arrived before `join`.
        public static let notJoined = Code(rawValue: "not-joined")
        /// A second `join` on a joined connection.
        public static let alreadyJoined = Code(rawValue: "already-joined")
        /// The resume token names no live session (unknown, expired, or evicted).
        public static let unknownSession = Code(rawValue: "unknown-session")
        /// The event names a stage that is not mounted.
        public static let unknownStage = Code(rawValue: "unknown-stage")
        /// The stage has no such event.
        public static let unknownEvent = Code(rawValue: "unknown-event")
        /// The event's value has the wrong type.
        public static let badValue = Code(rawValue: "bad-value")
        /// The event's number skips ahead of the next expected one.
        public static let eventGap = Code(rawValue: "event-gap")
        /// Too many events per second from this session.
        public static let rateLimited = Code(rawValue: "rate-limited")
        /// The client acknowledged a sequence number the server never sent.
        public static let badAck = Code(rawValue: "bad-ack")
        /// A Director produced a value a slot cannot hold; the slot kept its last value.
        public static let badSlotValue = Code(rawValue: "bad-slot-value")
        /// A Director failed on the event: the session ends (close 4001) and the page
        /// should reload; other sessions are unaffected.
        public static let directorFailed = Code(rawValue: "director-failed")
        /// A rebuild: a stage the page showed was not shown again (the app's routing or
        /// its modal restorer did not present that template there).
        public static let notRebuilt = Code(rawValue: "not-rebuilt")
        /// A rebuild: a value for an event the stage does not declare recoverable (or
        /// does not have); it was not applied.
        public static let notRecoverable = Code(rawValue: "not-recoverable")
        /// The server failed to do its part (details are in the server log only).
        public static let `internal` = Code(rawValue: "internal-error")

        public var description: String { rawValue }

        /// A message for the code that reveals nothing of the server's state.
        public var summary: String {
            switch self {
            case .malformedJSON: "the message is not valid JSON"
            case .badMessage: "the message is not a valid protocol message"
            case .unsupportedVersion: "this protocol version is not supported"
            case .notJoined: "join a session first"
            case .alreadyJoined: "this connection has already joined a session"
            case .unknownSession: "the session expired or never existed; starting a new one"
            case .unknownStage: "the event's stage is not shown"
            case .unknownEvent: "the stage has no such event"
            case .badValue: "the event's value has the wrong type"
            case .eventGap: "the event number skips ahead"
            case .rateLimited: "too many events; event refused"
            case .badAck: "acknowledged a message that was never sent"
            case .badSlotValue: "a value could not be shown; the last one is kept"
            case .directorFailed: "the session failed; reload the page"
            case .notRebuilt: "a stage the page showed could not be rebuilt"
            case .notRecoverable: "a value the page kept could not be restored"
            case .internal: "the server failed; details are in its log"
            default: "the message was refused"
            }
        }
    }

    /// The machine-readable code.
    public let code: Code
    /// A readable explanation for the developer looking at the browser console.
    public let message: String
    /// The client event number the error answers, when it answers one.
    public let eventNumber: Int64?
    /// When the error answers a run of events (several refused in a row for the same
    /// reason), the first of them; ``eventNumber`` is the last.
    public let firstEventNumber: Int64?

    public init(_ code: Code, _ message: String, eventNumber: Int64? = nil, firstEventNumber: Int64? = nil) {
        self.code = code
        self.message = message
        self.eventNumber = eventNumber
        self.firstEventNumber = firstEventNumber
    }

    /// This error as clients see it when ``ServerConfiguration/sendsErrorDetails`` is
    /// off: the same code and event numbers with the code's generic message.
    func withoutDetails() -> ProtocolError {
        ProtocolError(code, code.summary, eventNumber: eventNumber, firstEventNumber: firstEventNumber)
    }

    /// This error and `next` (the same code, for the event right after) as one error
    /// for the run of events; nil when they cannot be merged.
    func merged(with next: ProtocolError) -> ProtocolError? {
        guard code == next.code, let last = eventNumber, let nextNumber = next.eventNumber, nextNumber == last + 1
        else {
            return nil
        }
        let first = firstEventNumber ?? last
        return ProtocolError(
            code, "events \(first)–\(nextNumber): \(next.message)", eventNumber: nextNumber, firstEventNumber: first)
    }

    public var description: String {
        switch (firstEventNumber, eventNumber) {
        case (let first?, let last?): "\(code) (events \(first)–\(last)): \(message)"
        case (nil, let number?): "\(code) (event \(number)): \(message)"
        default: "\(code): \(message)"
        }
    }
}
