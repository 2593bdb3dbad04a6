import Footlight
import Testing

@Suite struct OperatorTests {
    @Test("withLatestFrom pairs each value with the other's latest, and nothing else")
    func withLatestFrom() {
        let taps = PassthroughSubject<Int, Never>()
        let text = PassthroughSubject<String, Never>()
        var received: [String] = []
        let subscription = taps.withLatestFrom(text) { "\($0):\($1)" }.sink { received.append($0) }
        taps.send(1)  // dropped: no text yet
        text.send("a")
        text.send("b")  // alone emits nothing
        taps.send(2)
        taps.send(3)
        text.send("c")
        taps.send(4)
        #expect(received == ["2:b", "3:b", "4:c"])
        subscription.cancel()
    }

    @Test("shareLatest subscribes once and replays the latest value to late subscribers")
    func shareLatest() {
        var subscriptions = 0
        let source = PassthroughSubject<Int, Never>()
        let shared = source.handleEvents(receiveSubscription: { _ in subscriptions += 1 }).shareLatest()
        var first: [Int] = []
        var second: [Int] = []
        let a = shared.sink { first.append($0) }
        source.send(1)
        source.send(2)
        let b = shared.sink { second.append($0) }
        source.send(3)
        #expect(first == [1, 2, 3])
        #expect(second == [2, 3])
        #expect(subscriptions == 1)
        a.cancel()
        b.cancel()
    }

    struct Refused: Error {}

    @Test("Action runs one job at a time, with its flag, values and errors as outputs")
    func action() {
        let trigger = PassthroughSubject<String, Never>()
        var pending: [PassthroughSubject<Int, any Error>] = []
        let action = Action<String, Int>(trigger: trigger) { _ in
            let job = PassthroughSubject<Int, any Error>()
            pending.append(job)
            return job.eraseToAnyPublisher()
        }
        var busy: [Bool] = []
        var values: [Int] = []
        var errors = 0
        let subscriptions = [
            action.isExecuting.sink { busy.append($0) },
            action.values.sink { values.append($0) },
            action.errors.sink { _ in errors += 1 },
        ]
        trigger.send("first")
        trigger.send("ignored while running")
        #expect(pending.count == 1)
        pending[0].send(7)
        pending[0].send(completion: .finished)
        trigger.send("second")
        pending[1].send(completion: .failure(Refused()))
        #expect(busy == [false, true, false, true, false])
        #expect(values == [7])
        #expect(errors == 1)
        #expect(action.execute("third"))
        #expect(!action.execute("fourth"))
        for subscription in subscriptions { subscription.cancel() }
    }

    @Test("A job that completes synchronously leaves the action ready for the next")
    func synchronousJob() {
        let action = Action<Int, Int> { Just($0 * 2).setFailureType(to: (any Error).self).eraseToAnyPublisher() }
        var values: [Int] = []
        let subscription = action.values.sink { values.append($0) }
        #expect(action.execute(1))
        #expect(action.execute(2))
        #expect(values == [2, 4])
        subscription.cancel()
    }
}

@Suite struct CombiningTests {
    @Test("combineLatest waits for both, then emits on every change of either")
    func combineLatest() {
        let email = PassthroughSubject<String, Never>()
        let password = PassthroughSubject<String, Never>()
        var received: [String] = []
        let subscription = email.combineLatest(password) { "\($0)/\($1)" }.sink { received.append($0) }
        email.send("a")
        password.send("1")
        email.send("ab")
        password.send("12")
        #expect(received == ["a/1", "ab/1", "ab/12"])
        subscription.cancel()
    }

    @Test("combineLatest of three, and merge, in arrival order")
    func threeAndMerge() {
        let a = CurrentValueSubject<Int, Never>(1)
        let b = CurrentValueSubject<Int, Never>(2)
        let c = PassthroughSubject<Int, Never>()
        var sums: [Int] = []
        let first = a.combineLatest(b, c) { $0 + $1 + $2 }.sink { sums.append($0) }
        c.send(3)
        a.send(10)
        #expect(sums == [6, 15])
        var merged: [Int] = []
        var finished = false
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let second = left.merge(with: right).sink(receiveCompletion: { _ in finished = true }) { merged.append($0) }
        left.send(1)
        right.send(2)
        left.send(3)
        left.send(completion: .finished)
        #expect(!finished)
        right.send(completion: .finished)
        #expect(merged == [1, 2, 3])
        #expect(finished)
        first.cancel()
        second.cancel()
    }
}

@Suite struct ActionLifetimeTests {
    @Test("An action keeps running while its outputs are observed, after its owner is gone")
    func outlivesItsOwner() {
        let trigger = PassthroughSubject<Int, Never>()
        var values: [Int] = []
        var subscription: AnyCancellable?
        do {
            let action = Action<Int, Int>(trigger: trigger) {
                Just($0 + 1).setFailureType(to: (any Error).self).eraseToAnyPublisher()
            }
            subscription = action.values.sink { values.append($0) }
        }
        trigger.send(1)
        #expect(values == [2])
        subscription?.cancel()
    }
}
