import FootlightJSON

/// Pub/sub within one process: the default, and the local half of every backplane.
///
/// A published message is handed to each subscriber's executor at once, in publish
/// order per topic (handing over never waits: ``SessionExecutor/execute(_:)`` queues).
/// Thread-safe.
public final class LocalPubSub: PubSub {
    private struct Subscriber {
        let executor: any SessionExecutor
        let receive: @Sendable (PubSubEvent) -> Void
    }
    private struct State {
        var topics: [String: [Int: Subscriber]] = [:]
        var nextID = 0
    }
    private let state = Locked(State())
    private let topicsChanged: (@Sendable () -> Void)?

    /// The limits on topics and messages.
    public let limits: PubSubLimits

    /// A pub/sub with `limits`. A backplane passes `topicsChanged`, called (without
    /// locks held) after a topic gets its first subscriber or loses its last.
    public init(limits: PubSubLimits = PubSubLimits(), topicsChanged: (@Sendable () -> Void)? = nil) {
        self.limits = limits
        self.topicsChanged = topicsChanged
    }

    public func publish(_ message: JSON, to topic: String) throws(PubSubError) {
        _ = try limits.encode(message, to: topic)
        deliver(.message(message), to: topic)
    }

    public func subscribe(
        to topic: String, on executor: any SessionExecutor, _ receive: @escaping @Sendable (PubSubEvent) -> Void
    ) -> PubSubSubscription {
        let (id, isNewTopic) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            let isNew = state.topics[topic] == nil
            state.topics[topic, default: [:]][id] = Subscriber(executor: executor, receive: receive)
            return (id, isNew)
        }
        if isNewTopic { topicsChanged?() }
        return PubSubSubscription { [weak self] in self?.unsubscribe(id, from: topic) }
    }

    /// Hands `event` to every subscriber of `topic` in this process.
    public func deliver(_ event: PubSubEvent, to topic: String) {
        state.withLock { state in
            guard let subscribers = state.topics[topic] else { return }
            for subscriber in subscribers.values {
                let receive = subscriber.receive
                subscriber.executor.execute { receive(event) }
            }
        }
    }

    /// Hands `event` to every subscriber of every topic (a backplane's
    /// ``PubSubEvent/missed`` after it was away).
    public func deliverToAll(_ event: PubSubEvent) {
        state.withLock { state in
            for subscribers in state.topics.values {
                for subscriber in subscribers.values {
                    let receive = subscriber.receive
                    subscriber.executor.execute { receive(event) }
                }
            }
        }
    }

    /// The topics that have subscribers in this process.
    public var topics: Set<String> { state.withLock { Set($0.topics.keys) } }

    /// How many subscriptions are registered (for tests and diagnostics).
    public var subscriberCount: Int { state.withLock { $0.topics.values.reduce(0) { $0 + $1.count } } }

    private func unsubscribe(_ id: Int, from topic: String) {
        let wasLast = state.withLock { state -> Bool in
            guard state.topics[topic]?.removeValue(forKey: id) != nil else { return false }
            guard state.topics[topic]?.isEmpty == true else { return false }
            state.topics[topic] = nil
            return true
        }
        if wasLast { topicsChanged?() }
    }
}
