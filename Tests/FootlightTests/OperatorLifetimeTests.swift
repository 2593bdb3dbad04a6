import Footlight
import Testing

/// Directors are made per session and must go when it ends: once every subscriber of
/// an operator's output has cancelled, nothing upstream may be kept alive.
@Suite struct OperatorLifetimeTests {
    final class Probe {}

    /// Builds `chain` over a source whose values hold a probe, subscribes, sends, cancels;
    /// returns whether the probe (and so the chain) was released.
    func released(_ chain: (AnyPublisher<Probe, Never>) -> AnyPublisher<Probe, Never>) -> Bool {
        weak var weakProbe: Probe?
        do {
            let probe = Probe()
            weakProbe = probe
            let source = PassthroughSubject<Int, Never>()
            let output = chain(source.map { _ in probe }.eraseToAnyPublisher())
            let first = output.sink { _ in }
            let second = output.sink { _ in }
            source.send(1)
            first.cancel()
            second.cancel()
        }
        return weakProbe == nil
    }

    @Test("Cancelling a stage cancels its Actions' jobs in flight: the work sees the cancel, nothing arrives late")
    func stageCancelsItsActions() {
        let trigger = PassthroughSubject<Int, Never>()
        let answer = PassthroughSubject<String, any Error>()
        var cancelled = 0
        let stage = Stage(name: "form")
        do {
            let action = Action<Int, String>(trigger: trigger) { _ in
                answer.handleEvents(receiveCancel: { cancelled += 1 }).eraseToAnyPublisher()
            }
            stage.bind(action.isExecuting, to: "busy")
            stage.bind(action.values.map { Optional($0) }.prepend(nil), to: "result")
        }
        trigger.send(1)
        #expect(stage.document == ["busy": true, "result": nil])
        stage.cancel()
        #expect(cancelled == 1)
        answer.send("too late")
        trigger.send(2)  // the action is gone: no second job
        #expect(cancelled == 1)
        #expect(stage.document == ["busy": true, "result": nil], "a cancelled stage changes no more")
    }

    @Test("shareLatest lets go of its upstream when its subscribers cancel, also after the upstream completed")
    func shareLatest() {
        #expect(released { $0.shareLatest() })
        #expect(released { $0.prefix(1).shareLatest() })
        #expect(released { $0.prefix(1).removeDuplicates { _, _ in false }.shareLatest() })
    }

    @Test("withLatestFrom, combineLatest and merge let go when cancelled")
    func combinators() {
        #expect(released { $0.withLatestFrom(Just(1)) { probe, _ in probe }.eraseToAnyPublisher() })
        #expect(released { $0.combineLatest(Just(1)) { probe, _ in probe }.eraseToAnyPublisher() })
        #expect(released { $0.merge(with: Empty()).eraseToAnyPublisher() })
    }
}

extension OperatorLifetimeTests {
    @Test("withLatestFrom lets go of its other input when its trigger completes first")
    func withLatestFromCompletedTrigger() {
        #expect(
            released { probes in Empty<Int, Never>().withLatestFrom(probes) { _, probe in probe }.eraseToAnyPublisher()
            })
        #expect(
            released { probes in
                Empty<Int, Never>().withLatestFrom(probes.shareLatest()) { _, probe in probe }.eraseToAnyPublisher()
            })
    }

    @Test("combineLatest and merge let go when one input has completed")
    func completedInputs() {
        #expect(released { $0.combineLatest(Empty<Int, Never>()) { probe, _ in probe }.eraseToAnyPublisher() })
        #expect(released { $0.shareLatest().combineLatest(Just(1)) { probe, _ in probe }.eraseToAnyPublisher() })
        #expect(released { Empty<Probe, Never>().merge(with: $0).eraseToAnyPublisher() })
    }
}

extension OperatorLifetimeTests {
    /// Whether a probe held by a `removeDuplicates` predicate in front of `shareLatest`
    /// over `upstream` is released once the subscribers cancel.
    func sharedChainReleased(_ upstream: AnyPublisher<Int, Never>) -> Bool {
        weak var weakProbe: Probe?
        do {
            let probe = Probe()
            weakProbe = probe
            let shared = upstream.removeDuplicates { _, _ in withExtendedLifetime(probe) { false } }.shareLatest()
            let first = shared.sink { _ in }
            let second = shared.sink { _ in }
            first.cancel()
            second.cancel()
        }
        return weakProbe == nil
    }

    @Test("shareLatest over an upstream that completes at once (Just, Empty) lets go of it")
    func shareLatestOverCompletedUpstream() {
        #expect(sharedChainReleased(Just(1).eraseToAnyPublisher()))
        #expect(sharedChainReleased(Empty().eraseToAnyPublisher()))
        #expect(sharedChainReleased(PassthroughSubject<Int, Never>().eraseToAnyPublisher()))
    }
}
