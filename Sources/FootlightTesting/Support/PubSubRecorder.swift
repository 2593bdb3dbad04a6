import Dispatch
import Footlight

/// A subscriber that records what a ``PubSub`` delivers, in order, on a queue of its
/// own (and checks each delivery runs there).
///
/// ```swift
/// let recorder = PubSubRecorder()
/// let subscription = recorder.subscribe(to: "lots", on: pubSub)
/// try pubSub.publish("hello", to: "lots")
/// recorder.settle()
/// #expect(recorder.events == [.message("hello")])
/// ```
public final class PubSubRecorder: Sendable {
    /// The executor deliveries run on.
    public let queue = DispatchQueue(label: "footlight-pubsub-recorder")
    private let received = Locked<[PubSubEvent]>([])

    public init() {}

    /// Everything received so far, oldest first.
    public var events: [PubSubEvent] { received.withLock { $0 } }

    /// Subscribes to `topic`; keep the subscription as long as you want deliveries.
    public func subscribe(to topic: String, on pubSub: any PubSub) -> PubSubSubscription {
        pubSub.subscribe(to: topic, on: queue) { [self] event in
            dispatchPrecondition(condition: .onQueue(queue))
            received.withLock { $0.append(event) }
        }
    }

    /// Returns once the queue has run every delivery handed to it before the call.
    public func settle() { queue.sync {} }
}
