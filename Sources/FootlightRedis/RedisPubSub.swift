import Crypto
import DequeModule
import Dispatch
import Footlight
import FootlightJSON
import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// A ``PubSub`` shared by every node through Redis pub/sub.
///
/// Subscribers in this process get a message as ``LocalPubSub`` hands it over, at
/// once; other nodes get it through Redis. Two threads of its own talk to Redis: one
/// publishes (a bounded queue of waiting messages, pipelined), one holds the
/// subscriptions (one Redis channel per topic with subscribers here, named
/// ``Configuration/channelPrefix`` + topic). Neither ever runs app code or blocks a
/// caller.
///
/// While Redis is away (down, restarting, unreachable) both threads try again with a
/// growing backoff and one log line says so; messages wait, up to
/// ``Configuration/maximumWaiting``, and are sent when it is back (past that, a message
/// reaches this process's subscribers only, and `publish` throws). Each message
/// carries its publisher's id and number, so one sent again after a lost reply is
/// applied once. Each time Redis confirms a topic's subscription (the first time, and
/// again after a break), that topic's subscribers here get ``PubSubEvent/missed``: what
/// was published before is gone (Redis pub/sub keeps nothing), so shared state should
/// be read again.
///
/// The threads keep the pub/sub alive until ``shutdown()``.
public final class RedisPubSub: PubSub {
    /// How to reach Redis and how much to keep while it is away.
    public struct Configuration: Sendable {
        /// The Redis server.
        public var address: RedisAddress
        /// Prepended to each topic to name its Redis channel, so apps can share a Redis.
        public var channelPrefix: String
        /// Limits on topics and messages.
        public var limits: PubSubLimits
        /// How many published messages may wait for Redis; more are refused with
        /// ``PubSubError/Kind/queueFull``.
        public var maximumWaiting: Int
        /// How long a connect, a read or a write may take.
        public var timeout: Duration
        /// How often an idle subscription is checked with a `PING`; one with no answer
        /// for two of these is taken for dead and made again.
        public var heartbeat: Duration
        /// The wait before the first retry after Redis went away, doubled for each
        /// failed try up to ``maximumBackoff``.
        public var initialBackoff: Duration
        public var maximumBackoff: Duration

        public init(
            address: RedisAddress, channelPrefix: String = "footlight:", limits: PubSubLimits = PubSubLimits(),
            maximumWaiting: Int = 4_096, timeout: Duration = .seconds(1), heartbeat: Duration = .seconds(1),
            initialBackoff: Duration = .milliseconds(100), maximumBackoff: Duration = .seconds(5)
        ) {
            self.address = address
            self.channelPrefix = channelPrefix
            self.limits = limits
            self.maximumWaiting = maximumWaiting
            self.timeout = timeout
            self.heartbeat = heartbeat
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
        }
    }

    /// Messages waiting for the publishing thread.
    struct Outbox {
        var waiting: Deque<(channel: [UInt8], envelope: [UInt8])> = []
        var nextSequence: Int64 = 1
        var isStopped = false
        /// Refusals since the last log line about them.
        var refusedSinceLog = 0
    }

    let configuration: Configuration
    let local: LocalPubSub
    /// This instance's id in the envelopes it publishes.
    let origin: String
    let outbox = Locked(Outbox())
    /// Signalled when a message waits or the pub/sub stops.
    let outboxSignal = DispatchSemaphore(value: 0)
    let wake: WakePipe
    let logger: Logger
    /// Whether the subscriptions are live: connected, and every topic confirmed.
    let subscriptionsLive = Locked(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the threads that connect to Redis (the first connection is made in the
    /// background: a Redis that is not up yet is retried like one that went away).
    ///
    /// - Throws: ``RedisError`` when the process cannot make the pipe that wakes its
    ///   subscription thread (out of file descriptors).
    public init(_ configuration: Configuration, logger: Logger = Logger(label: "footlight.redis")) throws(RedisError) {
        let wake = try WakePipe()
        self.configuration = configuration
        self.wake = wake
        self.logger = logger
        origin = SymmetricKey(size: .bits128).withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
        local = LocalPubSub(limits: configuration.limits, topicsChanged: { wake.signal() })
        for (name, body) in [("footlight-redis-pub", publishLoop), ("footlight-redis-sub", subscribeLoop)] {
            let thread = Thread { [finished] in
                body()
                finished.signal()
            }
            thread.name = name
            thread.stackSize = 512 << 10
            thread.start()
        }
    }

    public func publish(_ message: JSON, to topic: String) throws(PubSubError) {
        let encoded = try configuration.limits.encode(message, to: topic)
        let channel = Array((configuration.channelPrefix + topic).utf8)
        let refusal = outbox.withLock { outbox -> PubSubError? in
            if outbox.isStopped { return PubSubError(.shutDown, "the Redis pub/sub was shut down") }
            guard outbox.waiting.count < configuration.maximumWaiting else {
                outbox.refusedSinceLog += 1
                return PubSubError(
                    .queueFull,
                    "\(configuration.maximumWaiting) messages are waiting for Redis at \(configuration.address); a message to \(topic) reached this process's subscribers only"
                )
            }
            let envelope = PubSubEnvelope.encode(origin: origin, sequence: outbox.nextSequence, message: encoded)
            outbox.nextSequence += 1
            outbox.waiting.append((channel, envelope))
            return nil
        }
        if refusal?.kind == .shutDown { throw refusal! }
        // This process's subscribers are served whether or not Redis takes the message.
        local.deliver(.message(message), to: topic)
        if let refusal { throw refusal }
        outboxSignal.signal()
    }

    public func subscribe(
        to topic: String, on executor: any SessionExecutor, _ receive: @escaping @Sendable (PubSubEvent) -> Void
    ) -> PubSubSubscription {
        local.subscribe(to: topic, on: executor, receive)
    }

    /// Whether the subscriptions are live: connected to Redis, and every topic with a
    /// subscriber here subscribed to. Messages published elsewhere before that may not
    /// arrive.
    public var isLive: Bool { subscriptionsLive.withLock { $0 } }

    /// How many published messages wait for Redis.
    public var waitingCount: Int { outbox.withLock { $0.waiting.count } }

    /// Stops both threads and closes the connections; messages still waiting are
    /// dropped (and counted in the log). Later publishes are refused.
    public func shutdown() {
        let (wasStopped, dropped) = outbox.withLock { outbox in
            defer { outbox.isStopped = true }
            return (outbox.isStopped, outbox.waiting.count)
        }
        guard !wasStopped else { return }
        outboxSignal.signal()
        wake.signal()
        finished.wait()
        finished.wait()
        if dropped > 0 {
            logger.warning("the Redis pub/sub stopped with \(dropped) messages not published")
        }
    }

    var isStopped: Bool { outbox.withLock { $0.isStopped } }

    /// Waits `backoff` before a thread tries Redis again; returns early only when the
    /// pub/sub stops (a message published or a topic added does not cut it short).
    func pause(_ backoff: Duration) {
        let deadline = ContinuousClock.now + backoff
        while !isStopped, ContinuousClock.now < deadline {
            usleep(UInt32(min(10_000, max(1, (deadline - ContinuousClock.now).clampedNanoseconds / 1_000))))
        }
    }

    /// Doubles `backoff` up to the configured maximum.
    func grown(_ backoff: Duration) -> Duration {
        min(backoff * 2, configuration.maximumBackoff)
    }
}
