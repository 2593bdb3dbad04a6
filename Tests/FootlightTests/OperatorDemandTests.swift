import Dispatch
import Footlight
import FootlightJSON
import Testing

/// A subscriber that asks for values only when told to, and records what it gets.
private final class Probe<Input, Failure: Error>: Subscriber {
    var subscription: (any Subscription)?
    var values: [Input] = []
    var completion: Subscribers.Completion<Failure>?
    let initialDemand: Subscribers.Demand

    init(demand: Subscribers.Demand) {
        initialDemand = demand
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        values.append(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        self.completion = completion
    }
}

private struct Broken: Error, Equatable {}

@Suite("combineLatest, withLatestFrom and shareLatest: demand, completion, failure; shared row changes")
struct OperatorDemandTests {
    @Test("combineLatest sends a pair only on demand, and the latest pair when asked after a wait")
    func combineLatestDemand() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        let probe = Probe<(Int, String), Never>(demand: .max(1))
        a.combineLatest(b).subscribe(probe)
        a.send(1)
        b.send("x")
        a.send(2)
        a.send(3)
        #expect(probe.values.map { "\($0.0)\($0.1)" } == ["1x"])
        probe.subscription?.request(.max(1))
        #expect(probe.values.map { "\($0.0)\($0.1)" } == ["1x", "3x"], "the latest pair, once")
        probe.subscription?.request(.max(1))
        b.send("y")
        #expect(probe.values.map { "\($0.0)\($0.1)" } == ["1x", "3x", "3y"])
        probe.subscription?.cancel()
    }

    @Test("combineLatest finishes when both inputs have, or at once when one ends with no value")
    func combineLatestCompletion() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let probe = Probe<(Int, Int), Never>(demand: .unlimited)
        a.combineLatest(b).subscribe(probe)
        a.send(1)
        b.send(2)
        a.send(completion: .finished)
        #expect(probe.completion == nil)
        b.send(3)
        #expect(probe.values.map { $0.0 + $0.1 } == [3, 4], "a finished input's last value still pairs")
        b.send(completion: .finished)
        #expect(probe.completion == .finished)

        let c = PassthroughSubject<Int, Never>()
        let lonely = Probe<(Int, Int), Never>(demand: .unlimited)
        var cancelled = false
        c.handleEvents(receiveCancel: { cancelled = true }).combineLatest(Empty<Int, Never>()).subscribe(lonely)
        #expect(lonely.completion == .finished, "no pair can ever come")
        #expect(cancelled, "the other input is let go")
    }

    @Test("combineLatest holds the end behind a pair that waits for demand")
    func combineLatestEndAfterWaitingPair() {
        let probe = Probe<(Int, Int), Never>(demand: .none)
        Just(1).combineLatest(Just(2)).subscribe(probe)
        #expect(probe.values.isEmpty && probe.completion == nil, "nothing asked for yet")
        probe.subscription?.request(.max(1))
        #expect(probe.values.map { [$0.0, $0.1] } == [[1, 2]])
        #expect(probe.completion == .finished, "the pair first, then the end")
    }

    /// Counts calls into a subscriber that overlap another (from another thread).
    final class OverlapProbe<Input>: Subscriber, @unchecked Sendable {
        // @unchecked: the counters are `Locked`; `subscription` is set once, before any
        // value is sent, and read after the senders are done.
        typealias Failure = Never
        private let inside = Locked(false)
        let overlaps = Locked(0)
        let received = Locked(0)
        /// Kept for ``cancel()``: set once, before the first value, and read after the last.
        private var subscription: (any Subscription)?
        func receive(subscription: any Subscription) {
            self.subscription = subscription
            subscription.request(.unlimited)
        }
        /// Ends the subscription: one never cancelled (nor completed) keeps what it
        /// subscribed to alive, as a subject and its subscribers hold each other.
        func cancel() { subscription?.cancel() }
        func receive(_ input: Input) -> Subscribers.Demand {
            let entered = inside.withLock { inside -> Bool in
                defer { inside = true }
                return !inside
            }
            if !entered { overlaps.withLock { $0 += 1 } }
            for _ in 0..<50 { _ = received.withLock { $0 } }  // stay inside a little
            received.withLock { $0 += 1 }
            if entered { inside.withLock { $0 = false } }
            return .none
        }
        func receive(completion: Subscribers.Completion<Never>) {}
    }

    @Test("Inputs that send on different threads reach the subscriber one call at a time")
    func deliveriesOneAtATime() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let paired = OverlapProbe<(Int, Int)>()
        a.combineLatest(b).subscribe(paired)
        let source = PassthroughSubject<Int, Never>()
        let shared = OverlapProbe<Int>()
        source.shareLatest().subscribe(shared)
        a.send(0)
        b.send(0)
        // OpenCombine's subjects are thread-safe (they lock), though not marked Sendable.
        nonisolated(unsafe) let (left, right, upstream) = (a, b, source)
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            for value in 1...2_000 {
                switch worker {
                case 0: left.send(value)
                case 1: right.send(value)
                default: upstream.send(value)
                }
            }
        }
        #expect(paired.overlaps.withLock { $0 } == 0)
        #expect(shared.overlaps.withLock { $0 } == 0)
        #expect(paired.received.withLock { $0 } == 4_001, "one pair for every value of either input")
        #expect(shared.received.withLock { $0 } == 2_000)
        paired.cancel()
        shared.cancel()
    }

    @Test("combineLatest fails with the first failure and cancels the other input")
    func combineLatestFailure() {
        let a = PassthroughSubject<Int, Broken>()
        let b = PassthroughSubject<Int, Broken>()
        var cancelled = false
        let probe = Probe<(Int, Int), Broken>(demand: .unlimited)
        a.combineLatest(b.handleEvents(receiveCancel: { cancelled = true })).subscribe(probe)
        a.send(1)
        a.send(completion: .failure(Broken()))
        #expect(probe.completion == .failure(Broken()))
        #expect(cancelled)
        b.send(2)
        #expect(probe.values.isEmpty)
    }

    @Test("withLatestFrom ends with its trigger, and goes on pairing with the last value of an ended other")
    func withLatestFromCompletion() {
        let taps = PassthroughSubject<Int, Never>()
        let text = PassthroughSubject<String, Never>()
        var cancelled = false
        let probe = Probe<String, Never>(demand: .unlimited)
        taps.withLatestFrom(text.handleEvents(receiveCancel: { cancelled = true })) { "\($0)\($1)" }.subscribe(probe)
        text.send("a")
        text.send(completion: .finished)
        taps.send(1)
        #expect(probe.values == ["1a"])
        #expect(probe.completion == nil)
        taps.send(completion: .finished)
        #expect(probe.completion == .finished)

        let trigger = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<String, Never>()
        let early = Probe<String, Never>(demand: .unlimited)
        trigger.withLatestFrom(other.handleEvents(receiveCancel: { cancelled = true })) { "\($0)\($1)" }
            .subscribe(early)
        cancelled = false
        trigger.send(completion: .finished)
        #expect(early.completion == .finished)
        #expect(cancelled, "the other input is let go with the trigger")
    }

    @Test("shareLatest holds a value for a subscriber with no demand until it asks")
    func shareLatestDemand() {
        let source = PassthroughSubject<Int, Never>()
        let shared = source.shareLatest()
        let eager = Probe<Int, Never>(demand: .unlimited)
        let slow = Probe<Int, Never>(demand: .none)
        shared.subscribe(eager)
        shared.subscribe(slow)
        source.send(1)
        source.send(2)
        #expect(eager.values == [1, 2])
        #expect(slow.values.isEmpty)
        slow.subscription?.request(.max(5))
        #expect(slow.values == [2], "the latest value, once")
        source.send(3)
        #expect(slow.values == [2, 3])
        eager.subscription?.cancel()
        slow.subscription?.cancel()
    }

    @Test("shareLatest subscribes again after its last subscriber left, first replaying the kept value")
    func shareLatestReconnects() {
        var subscriptions = 0
        let source = CurrentValueSubject<Int, Never>(1)
        let shared = source.handleEvents(receiveSubscription: { _ in subscriptions += 1 }).shareLatest()
        var first: [Int] = []
        let a = shared.sink { first.append($0) }
        source.send(2)
        a.cancel()
        source.send(3)
        var second: [Int] = []
        let b = shared.sink { second.append($0) }
        #expect(first == [1, 2])
        #expect(second == [2, 3], "the kept value, then the upstream's own again")
        #expect(subscriptions == 2)
        b.cancel()
    }

    struct Row: ViewValue, Identifiable, Equatable {
        let id: String
        let bid: Int
        var viewJSON: JSON { ["id": .string(id), "bid": .int(Int64(bid))] }
    }

    @Test("Directors given the same arrays of rows share the changes derived between them")
    func sharedRowChanges() {
        let before = [Row(id: "a", bid: 1), Row(id: "b", bid: 2)]
        let after = [Row(id: "a", bid: 1), Row(id: "b", bid: 3)]
        let sources = [CurrentValueSubject<[Row], Never>(before), CurrentValueSubject<[Row], Never>(before)]
        var received: [[[RowChange<Row>]]] = [[], []]
        let subscriptions = sources.indices.map { index in
            sources[index].rowChanges().sink { received[index].append($0) }
        }
        for source in sources { source.send(after) }
        #expect(received[0].count == 2 && received[1].count == 2)
        #expect(received[0][1] == [.update(Row(id: "b", bid: 3))])
        let shared = received[0][1].withUnsafeBufferPointer { left in
            received[1][1].withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
        }
        #expect(shared, "derived once, handed to both")
        // Equal arrays in buffers of their own are compared row by row, as before.
        var apart: [Row] = []
        apart.append(contentsOf: after)
        sources[0].send([Row(id: "b", bid: 3), Row(id: "a", bid: 1)])
        sources[1].send(apart)
        #expect(received[0].count == 3 && received[0][2].allSatisfy { if case .move = $0 { true } else { false } })
        #expect(received[1].count == 2, "no change, nothing sent")
        for subscription in subscriptions { subscription.cancel() }
    }
}
