import FootlightJSON

/// Publish/subscribe between the shared services of an app: JSON messages on named
/// topics (like Phoenix.PubSub or SignalR's backplane).
///
/// A service publishes what changed ("lot 7 has a new bid", "visitor V signed out");
/// every subscriber of that topic, in this process and, on a shared backplane, in
/// every other node, receives it on the executor it named. A message reaches each
/// subscriber at most once, and the messages of one publisher arrive in the order
/// they were published. ``LocalPubSub`` is the in-process default; a server given a
/// Redis address uses one backed by Redis pub/sub (`FootlightRedis`), with the same
/// interface, so services never know which one they have.
///
/// A backplane is a way to announce changes, not a store: a subscriber gets
/// ``PubSubEvent/missed`` when messages may have passed it by, and should read the
/// shared state again.
public protocol PubSub: AnyObject, Sendable {
    /// Publishes `message` to every subscriber of `topic`. Subscribers in this
    /// process get it first; other nodes as soon as the backplane takes it.
    ///
    /// - Throws: ``PubSubError`` when the topic or message is refused (empty topic,
    ///   message too large) or too many messages are waiting for the backplane.
    func publish(_ message: JSON, to topic: String) throws(PubSubError)

    /// Calls `receive` on `executor` for each event on `topic` until the returned
    /// subscription is cancelled (or released).
    func subscribe(
        to topic: String, on executor: any SessionExecutor, _ receive: @escaping @Sendable (PubSubEvent) -> Void
    ) -> PubSubSubscription
}

/// What a subscriber receives.
public enum PubSubEvent: Sendable, Equatable {
    /// A message published to the topic.
    case message(JSON)
    /// Messages published before now may never arrive: the backplane has just made
    /// the subscription live (at first, or again after it was away). Read the shared
    /// state again. ``LocalPubSub`` never sends it.
    case missed
}

/// A message or topic the pub/sub refused, or a backplane that cannot take more.
///
/// Match on ``kind`` (`error.kind == .queueFull`): its static members can grow without
/// breaking a `switch` that has a `default`. ``description`` is the readable message.
public struct PubSubError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case invalidTopic, messageTooLarge, unrepresentable, queueFull, shutDown
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// A topic must be 1 to ``PubSubLimits/maximumTopicBytes`` bytes of UTF-8.
        public static let invalidTopic = Kind(.invalidTopic)
        /// The message's JSON text is over the limit.
        public static let messageTooLarge = Kind(.messageTooLarge)
        /// The message cannot be written as JSON (a NaN, for one).
        public static let unrepresentable = Kind(.unrepresentable)
        /// The backplane is away and its queue of waiting messages is full.
        public static let queueFull = Kind(.queueFull)
        /// The pub/sub was shut down.
        public static let shutDown = Kind(.shutDown)

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

/// The limits every pub/sub applies.
public struct PubSubLimits: Sendable, Hashable {
    /// The longest topic name, in UTF-8 bytes.
    public static let maximumTopicBytes = 256

    /// The largest message, as compact JSON text, in bytes.
    public var maximumMessageBytes: Int

    public init(maximumMessageBytes: Int = 64 * 1024) {
        self.maximumMessageBytes = maximumMessageBytes
    }

    /// Checks `topic`, and returns `message` as compact JSON text within the limit.
    public func encode(_ message: JSON, to topic: String) throws(PubSubError) -> [UInt8] {
        try Self.check(topic: topic)
        let bytes: [UInt8]
        do {
            bytes = try message.serializedBytes()
        } catch {
            throw PubSubError(.unrepresentable, "a message to \(topic) cannot be written as JSON: \(error)")
        }
        guard bytes.count <= maximumMessageBytes else {
            throw PubSubError(
                .messageTooLarge,
                "a message to \(topic) is \(bytes.count) bytes, over the limit of \(maximumMessageBytes)")
        }
        return bytes
    }

    /// Throws unless `topic` is 1 to ``maximumTopicBytes`` bytes.
    public static func check(topic: String) throws(PubSubError) {
        let count = topic.utf8.count
        guard count > 0, count <= maximumTopicBytes else {
            throw PubSubError(
                .invalidTopic, "a topic must be 1 to \(maximumTopicBytes) bytes long, not \(count)")
        }
    }
}

/// A registration with a pub/sub. ``cancel()`` ends the deliveries (those already
/// handed to the executor still run); releasing the subscription cancels it too.
public final class PubSubSubscription: Cancellable, Sendable {
    private let onCancel: Locked<(@Sendable () -> Void)?>

    public init(cancel: @escaping @Sendable () -> Void) {
        onCancel = Locked(cancel)
    }

    public func cancel() {
        let action = onCancel.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit { cancel() }
}
