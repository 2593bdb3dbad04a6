import Dispatch
import Footlight
import FootlightJSON
import FootlightTesting
import Foundation
import Logging
import Testing

@testable import FootlightRedis

/// Two Redis pub/subs (two nodes) on one real `redis-server`.
@Suite(.timeLimit(.minutes(2)))
struct RedisPubSubTests {
    @Test("A message published on one node reaches the other's subscribers once, in order, and its own once")
    func acrossNodes() async throws {
        let redis = try RedisServer.start()
        defer { redis.stop() }
        let (nodeA, nodeB) = try (node(redis), node(redis))
        defer {
            nodeA.shutdown()
            nodeB.shutdown()
        }
        let (onA, onB) = (PubSubRecorder(), PubSubRecorder())
        let subscriptions = [onA.subscribe(to: "bids", on: nodeA), onB.subscribe(to: "bids", on: nodeB)]
        try await waitFor("both nodes' subscriptions") { nodeA.isLive && nodeB.isLive }
        for number in 1...1_000 { try nodeA.publish(["n": .int(Int64(number))], to: "bids") }
        let expected = (1...1_000).map { PubSubEvent.message(["n": .int(Int64($0))]) }
        try await waitFor("node B to get every message") { onB.events.count >= 1_000 }
        try await Task.sleep(for: .milliseconds(200))
        // `missed` first: the subscription became live.
        #expect(onB.events == [.missed] + expected)
        #expect(
            onA.events == [.missed] + expected, "node A's own subscribers get each message once, not again from Redis")
        withExtendedLifetime(subscriptions) {}
    }

    @Test("With no subscriber a pub/sub is live and stays connected (it still publishes)")
    func publishOnly() async throws {
        let redis = try RedisServer.start()
        defer { redis.stop() }
        let logs = LogCapture()
        let (publisher, listener) = try (node(redis, logger: logs.logger), node(redis))
        defer {
            publisher.shutdown()
            listener.shutdown()
        }
        let inbox = PubSubRecorder()
        let subscription = inbox.subscribe(to: "bids", on: listener)
        try await waitFor("both live") { publisher.isLive && listener.isLive }
        // Several heartbeats (250 ms): an unanswered PING would be taken for a dead Redis.
        try await Task.sleep(for: .seconds(1))
        #expect(publisher.isLive)
        #expect(!logs.contains("is away"))
        try publisher.publish("hello", to: "bids")
        try await waitFor("the message") { inbox.events.last == .message("hello") }
        withExtendedLifetime(subscription) {}
    }

    @Test("Only topics with subscribers are subscribed to; a cancelled subscription's channel is left")
    func topicsFollowSubscribers() async throws {
        let redis = try RedisServer.start()
        defer { redis.stop() }
        let (nodeA, nodeB) = try (node(redis), node(redis))
        defer {
            nodeA.shutdown()
            nodeB.shutdown()
        }
        let inbox = PubSubRecorder()
        let lots = inbox.subscribe(to: "lots", on: nodeB)
        try await waitFor("the lots channel") { try channels(redis).contains("footlight:lots") }
        let accounts = inbox.subscribe(to: "accounts", on: nodeB)
        try await waitFor("both channels") { try channels(redis) == ["footlight:accounts", "footlight:lots"] }
        lots.cancel()
        try await waitFor("the lots channel to go") { try channels(redis) == ["footlight:accounts"] }
        try nodeA.publish("to lots", to: "lots")
        try nodeA.publish("to accounts", to: "accounts")
        try await waitFor("the accounts message") { inbox.events.filter { $0 != .missed } == [.message("to accounts")] }
        #expect(inbox.events.filter { $0 == .missed }.count == 2, "one as each topic's subscription became live")
        withExtendedLifetime(accounts) {}
    }

    @Test(
        "While Redis is away messages wait and are sent when it is back; subscribers hear they may have missed some"
    )
    func redisRestart() async throws {
        let redis = try RedisServer.start()
        defer { redis.stop() }
        let logs = LogCapture()
        let nodeA = try node(redis, logger: logs.logger)
        let nodeB = try node(redis)
        defer {
            nodeA.shutdown()
            nodeB.shutdown()
        }
        let onB = PubSubRecorder()
        let subscription = onB.subscribe(to: "bids", on: nodeB)
        try await waitFor("node B's subscription") { nodeB.isLive }
        try nodeA.publish("before", to: "bids")
        try await waitFor("the first message") { onB.events == [.missed, .message("before")] }

        redis.kill()
        try await waitFor("node B to notice") { !nodeB.isLive }
        for number in 1...3 { try nodeA.publish(.int(Int64(number)), to: "bids") }
        try await waitFor("node A to log that Redis is away") { logs.contains("is away") }
        #expect(nodeA.waitingCount == 3)

        try redis.restart()
        try await waitFor("node B to be back", timeout: .seconds(15)) { nodeB.isLive }
        try await waitFor("node A to send what waited", timeout: .seconds(15)) { nodeA.waitingCount == 0 }
        try nodeA.publish("after", to: "bids")
        try await waitFor("the message published after", timeout: .seconds(15)) {
            onB.events.last == .message("after")
        }
        // What waited reached Redis; node B got it if its subscription was back first,
        // and `missed` in any case (once, when its subscription was live again).
        let afterBreak = Array(onB.events.dropFirst(2).dropLast())
        #expect(afterBreak.filter { $0 == .missed }.count == 1)
        let waited = afterBreak.filter { $0 != .missed }
        let sent: [PubSubEvent] = [.message(1), .message(2), .message(3)]
        #expect(sent.suffix(waited.count) == waited[...], "those published after it was back, in order")
        try await waitFor("node A to log that Redis is back") { logs.contains("is back") }
        withExtendedLifetime(subscription) {}
    }

    @Test(
        "A full queue refuses more messages with a typed error (served here only), and a shut-down pub/sub refuses all")
    func boundedQueue() async throws {
        let redis = try RedisServer.start()
        let address = redis.address
        redis.stop()
        let pubSub = try RedisPubSub(.init(address: address, maximumWaiting: 3, initialBackoff: .seconds(1)))
        let inbox = PubSubRecorder()
        let subscription = inbox.subscribe(to: "bids", on: pubSub)
        for number in 1...3 { try pubSub.publish(.int(Int64(number)), to: "bids") }
        #expect(pubSubFailure { try pubSub.publish(4, to: "bids") } == .queueFull)
        #expect(pubSub.waitingCount == 3)
        inbox.settle()
        #expect(
            inbox.events == [.message(1), .message(2), .message(3), .message(4)],
            "this process's subscribers get what Redis cannot take")
        pubSub.shutdown()
        #expect(pubSubFailure { try pubSub.publish(5, to: "bids") } == .shutDown)
        withExtendedLifetime(subscription) {}
    }

    @Test("Junk on a channel is dropped with a log line, a repeated message is applied once, later ones arrive")
    func junkAndRepeats() async throws {
        let redis = try RedisServer.start()
        defer { redis.stop() }
        let logs = LogCapture()
        let pubSub = try node(redis, logger: logs.logger)
        defer { pubSub.shutdown() }
        let inbox = PubSubRecorder()
        let subscription = inbox.subscribe(to: "bids", on: pubSub)
        try await waitFor("the subscription") { pubSub.isLive }
        let raw = try RedisConnection(to: redis.address, timeout: .seconds(1))
        let envelope = PubSubEnvelope.encode(origin: "other-node", sequence: 7, message: Array("\"seven\"".utf8))
        for payload in [
            Array("not json".utf8), Array("{\"origin\":\"x\",\"seq\":0,\"message\":1}".utf8),
            Array("[1,2]".utf8), Array(repeating: UInt8(ascii: " "), count: 70_000),
            envelope, envelope,
            PubSubEnvelope.encode(origin: "other-node", sequence: 6, message: Array("\"six\"".utf8)),
            PubSubEnvelope.encode(origin: "other-node", sequence: 8, message: Array("\"eight\"".utf8)),
        ] {
            _ = try raw.command([Array("PUBLISH".utf8), Array("footlight:bids".utf8), payload])
        }
        try await waitFor("the last message") { inbox.events.last == .message("eight") }
        #expect(inbox.events == [.missed, .message("seven"), .message("eight")])
        #expect(logs.messages.filter { $0.contains("dropped") }.count == 4)
        #expect(pubSub.isLive)
        withExtendedLifetime(subscription) {}
    }

    @Test("A server that answers garbage, or nothing, never crashes a node; it is retried with a log line")
    func garbageServer() async throws {
        for behaviour in [FakeRedis.Behaviour.garbage, .silent] {
            let fake = try FakeRedis(behaviour)
            defer { fake.stop() }
            let logs = LogCapture()
            let pubSub = try RedisPubSub(
                .init(
                    address: fake.address, timeout: .milliseconds(300), heartbeat: .milliseconds(200),
                    initialBackoff: .milliseconds(50), maximumBackoff: .milliseconds(200)),
                logger: logs.logger)
            let inbox = PubSubRecorder()
            let subscription = inbox.subscribe(to: "bids", on: pubSub)
            try pubSub.publish("local", to: "bids")
            try await waitFor("a line each for publishing and subscribing (\(behaviour))") {
                logs.messages.filter { $0.contains("is away") }.count == 2
            }
            try await waitFor("more tries") { fake.connections >= 6 }
            #expect(logs.messages.filter { $0.contains("is away") }.count == 2, "no line per try")
            #expect(!logs.contains("is back"))
            #expect(!pubSub.isLive)
            inbox.settle()
            #expect(inbox.events == [.message("local")], "this process's subscribers are served without Redis")
            pubSub.shutdown()
            withExtendedLifetime(subscription) {}
        }
    }

    @Test("Envelopes: read back as written; anything else is refused")
    func envelopes() throws {
        let bytes = PubSubEnvelope.encode(origin: "abc", sequence: 3, message: Array("{\"a\":[1]}".utf8))
        #expect(try PubSubEnvelope.decode(bytes) == PubSubEnvelope(origin: "abc", sequence: 3, message: ["a": [1]]))
        for bad in [
            "", "null", "{}", "{\"origin\":\"\",\"seq\":1,\"message\":1}",
            "{\"origin\":\"a\",\"seq\":1.5,\"message\":1}",
            "{\"origin\":\"a\",\"seq\":1}", "{\"origin\":\"a\",\"seq\":1,\"message\":1,\"extra\":2}",
        ] {
            #expect(throws: PubSubEnvelopeError.self, "\(bad)") { try PubSubEnvelope.decode(Array(bad.utf8)) }
        }
        var filter = SequenceFilter(capacity: 2)
        let admitted = [
            filter.admits(1, from: "a"), filter.admits(2, from: "a"), filter.admits(2, from: "a"),
            filter.admits(1, from: "b"), filter.admits(1, from: "c"), filter.admits(1, from: "a"),
        ]
        #expect(admitted == [true, true, false, true, true, true], "c makes room by forgetting a")
    }

    @Test("Addresses read as HOST:PORT, with brackets for IPv6")
    func addresses() {
        #expect(RedisAddress("127.0.0.1:6379") == RedisAddress(host: "127.0.0.1", port: 6379))
        #expect(RedisAddress("[::1]:7000") == RedisAddress(host: "::1", port: 7000))
        #expect(RedisAddress("[::1]:7000")?.description == "[::1]:7000")
        for bad in ["", "redis", ":6379", "host:", "host:0", "host:70000", "host:port", "[::1:1"] {
            #expect(RedisAddress(bad) == nil, "\(bad)")
        }
    }

    private func node(_ redis: RedisServer, logger: Logger = Logger(label: "test")) throws -> RedisPubSub {
        try RedisPubSub(
            .init(
                address: redis.address, heartbeat: .milliseconds(250), initialBackoff: .milliseconds(50),
                maximumBackoff: .milliseconds(250)), logger: logger)
    }

    /// The footlight channels Redis has subscribers for, sorted.
    private func channels(_ redis: RedisServer) throws -> [String] {
        let connection = try RedisConnection(to: redis.address, timeout: .seconds(1))
        guard case .array(let names) = try connection.command("PUBSUB", "CHANNELS", "footlight:*") else { return [] }
        return names.compactMap(\.text).sorted()
    }
}
