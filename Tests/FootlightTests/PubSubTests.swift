import Dispatch
import Footlight
import FootlightJSON
import FootlightTesting
import Testing

@Suite struct LocalPubSubTests {
    @Test("Each subscriber of a topic gets each message once, in publish order, on its executor")
    func deliversInOrder() throws {
        let pubSub = LocalPubSub()
        let (first, second, other) = (PubSubRecorder(), PubSubRecorder(), PubSubRecorder())
        let subscriptions = [
            first.subscribe(to: "lots", on: pubSub), second.subscribe(to: "lots", on: pubSub),
            other.subscribe(to: "accounts", on: pubSub),
        ]
        for number in 1...100 { try pubSub.publish(["n": .int(Int64(number))], to: "lots") }
        for inbox in [first, second, other] { inbox.settle() }
        let expected = (1...100).map { PubSubEvent.message(["n": .int(Int64($0))]) }
        #expect(first.events == expected)
        #expect(second.events == expected)
        #expect(other.events.isEmpty)
        #expect(pubSub.topics == ["lots", "accounts"])
        withExtendedLifetime(subscriptions) {}
    }

    @Test("A cancelled or released subscription gets nothing more, and its topic goes when its last subscriber does")
    func cancelling() throws {
        let changes = Locked(0)
        let pubSub = LocalPubSub(topicsChanged: { changes.withLock { $0 += 1 } })
        let inbox = PubSubRecorder()
        let subscription = inbox.subscribe(to: "lots", on: pubSub)
        var released: PubSubSubscription? = inbox.subscribe(to: "lots", on: pubSub)
        try pubSub.publish("one", to: "lots")
        released = nil
        try pubSub.publish("two", to: "lots")
        subscription.cancel()
        subscription.cancel()
        try pubSub.publish("three", to: "lots")
        inbox.settle()
        #expect(inbox.events == [.message("one"), .message("one"), .message("two")])
        #expect(pubSub.subscriberCount == 0)
        #expect(pubSub.topics.isEmpty)
        #expect(changes.withLock { $0 } == 2, "the topic came and went once")
        _ = released
    }

    @Test("Bad topics and messages are refused with typed errors, and nothing is delivered")
    func refusals() throws {
        let pubSub = LocalPubSub(limits: PubSubLimits(maximumMessageBytes: 32))
        let inbox = PubSubRecorder()
        let subscription = inbox.subscribe(to: "lots", on: pubSub)
        #expect(pubSubFailure { try pubSub.publish("x", to: "") } == .invalidTopic)
        #expect(
            pubSubFailure {
                try pubSub.publish("x", to: String(repeating: "t", count: PubSubLimits.maximumTopicBytes + 1))
            } == .invalidTopic)
        #expect(
            pubSubFailure {
                try pubSub.publish(.string(String(repeating: "a", count: 40)), to: "lots")
            } == .messageTooLarge)
        #expect(pubSubFailure { try pubSub.publish(.double(.nan), to: "lots") } == .unrepresentable)
        try pubSub.publish(.string(String(repeating: "a", count: 30)), to: "lots")
        inbox.settle()
        #expect(inbox.events == [.message(.string(String(repeating: "a", count: 30)))])
        withExtendedLifetime(subscription) {}
    }

    @Test("Many threads publishing and subscribing at once lose and double nothing")
    func concurrentUse() throws {
        let pubSub = LocalPubSub()
        let inbox = PubSubRecorder()
        let subscription = inbox.subscribe(to: "bids", on: pubSub)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for number in 0..<250 {
                try? pubSub.publish(["thread": .int(Int64(thread)), "n": .int(Int64(number))], to: "bids")
                let churn = PubSubRecorder().subscribe(to: "bids", on: pubSub)
                churn.cancel()
            }
        }
        inbox.settle()
        #expect(inbox.events.count == 2_000)
        for thread in 0..<8 {
            let numbers = inbox.events.compactMap { event -> Int64? in
                guard case .message(let json) = event, case .int(Int64(thread))? = json["thread"],
                    case .int(let number)? = json["n"]
                else { return nil }
                return number
            }
            #expect(numbers == Array(0..<250), "thread \(thread)'s messages in its order")
        }
        withExtendedLifetime(subscription) {}
    }
}
