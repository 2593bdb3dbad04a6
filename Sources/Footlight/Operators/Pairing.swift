import FootlightJSON

/// Two inputs read together: ``Publisher/combineLatest(_:)`` on OpenCombine, which
/// sends a pair whenever either input emits, once both have; and
/// ``Publisher/withLatestFrom(_:_:)``, which sends one only when the first (the trigger)
/// emits, once the other has.
///
/// Both inputs are read without limit and only their latest values are kept; a
/// subscriber with no demand when a pair is due gets the latest pair when it asks for
/// more. One subscription per subscriber, one hop from each input: the same operators
/// built from OpenCombine's FlatMap and Scan took four or five, and a value a shared
/// service sends to thousands of sessions passes through them once per session.
struct Paired<Left: Publisher, Right: Publisher>: Publisher where Left.Failure == Right.Failure {
    typealias Output = (Left.Output, Right.Output)
    typealias Failure = Left.Failure

    enum Mode {
        /// A pair on every value of either input. Finishes when both inputs have (or
        /// at once when one finishes before it ever emitted: no pair can come); fails
        /// with the first failure, cancelling the other input.
        case combineLatest
        /// A pair on every value of the left input, with the right's latest (left values
        /// before the right's first are dropped). Finishes or fails with the left input;
        /// the right finishing changes nothing (its last value stays), its failure fails.
        case withLatestFrom
    }

    let left: Left
    let right: Right
    let mode: Mode

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let pairing = Pairing<Left.Output, Right.Output, Failure>(
            downstream: Boxed(AnySubscriber(subscriber)), emitsOnRight: mode == .combineLatest)
        subscriber.receive(subscription: pairing)
        left.subscribe(Pairing.Side(pairing, .left) { pairing.received(left: $0) })
        right.subscribe(Pairing.Side(pairing, .right) { pairing.received(right: $0) })
    }
}

private enum PairingInput {
    case left, right
}

/// The subscription: the latest value of each input, the subscriber's demand.
///
/// The subscriber is called one call at a time, in order, whichever threads the inputs
/// send on: every call to it is made holding `delivery` (recursive, so a subscriber may
/// send into an input while it is called; that value is delivered within the call, as
/// OpenCombine's own operators do). `lock` guards the state and is never held while the
/// subscriber or an input is called; `delivery` is always taken first.
private final class Pairing<A, B, Failure: Error>: Subscription, @unchecked Sendable {
    // @unchecked: the mutable members are touched only under `lock`.
    private let delivery = PthreadMutex(recursive: true)
    private let lock = PthreadMutex()
    // Boxed and slots rather than optionals: this generic code runs unspecialized, where
    // each use of an optional of a generic type costs a runtime lookup (``ValueSlot``).
    private var downstream: Boxed<AnySubscriber<(A, B), Failure>>?
    private var leftValue = ValueSlot<A>()
    private var rightValue = ValueSlot<B>()
    private var demand = Subscribers.Demand.none
    /// A pair was due while the subscriber had no demand (so both inputs have values).
    private var missed = false
    /// The inputs ended while a pair waited for demand: the pair goes first, then this.
    private var ending: Boxed<Subscribers.Completion<Failure>>?
    private var upstreams: [PairingInput: any Subscription] = [:]
    private var finished: Set<PairingInput> = []
    /// combineLatest: a value of the right input sends a pair too.
    private let emitsOnRight: Bool

    let combineIdentifier = CombineIdentifier()

    init(downstream: Boxed<AnySubscriber<(A, B), Failure>>, emitsOnRight: Bool) {
        self.downstream = downstream
        self.emitsOnRight = emitsOnRight
    }

    func request(_ more: Subscribers.Demand) {
        delivery.lock()
        defer { delivery.unlock() }
        lock.lock()
        demand += more
        guard missed, demand > 0, let downstream else { return lock.unlock() }
        missed = false
        demand -= 1
        let pair = (leftValue.value, rightValue.value)
        let ending = self.ending
        if ending != nil {
            self.ending = nil
            self.downstream = nil
        }
        lock.unlock()
        guard let ending else { return deliver(pair, to: downstream) }
        _ = downstream.value.receive(pair)
        downstream.value.receive(completion: ending.value)
    }

    func cancel() {
        lock.lock()
        downstream = nil
        let cancelled = Array(upstreams.values)
        upstreams.removeAll()
        lock.unlock()
        for upstream in cancelled { upstream.cancel() }
    }

    /// Keeps an input's subscription and asks it for everything; cancels it when the
    /// pairing has ended.
    func subscribed(_ input: PairingInput, _ subscription: any Subscription) {
        lock.lock()
        let live = downstream != nil
        if live { upstreams[input] = subscription }
        lock.unlock()
        if live { subscription.request(.unlimited) } else { subscription.cancel() }
    }

    func received(left value: A) {
        emit { leftValue.fill(value) }
    }

    func received(right value: B) {
        guard emitsOnRight else {
            lock.lock()
            if downstream != nil, ending == nil { rightValue.fill(value) }
            return lock.unlock()
        }
        emit { rightValue.fill(value) }
    }

    func finished(_ input: PairingInput, _ completion: Subscribers.Completion<Failure>) {
        delivery.lock()
        defer { delivery.unlock() }
        lock.lock()
        guard let downstream else { return lock.unlock() }
        upstreams[input] = nil
        finished.insert(input)
        var waits = false
        if case .finished = completion {
            // combineLatest ends when both inputs have ended, or one ended with no
            // value; withLatestFrom with its trigger (or the other with no value).
            let neverPairs = input == .left ? !leftValue.isFilled : !rightValue.isFilled
            let ends = emitsOnRight ? finished.count == 2 || neverPairs : input == .left || neverPairs
            if !ends { return lock.unlock() }
            // A pair due before the end waits for demand; the end follows it.
            waits = missed && !neverPairs
        }
        if waits {
            ending = Boxed(completion)
        } else {
            self.downstream = nil
        }
        let others = Array(upstreams.values)
        upstreams.removeAll()
        lock.unlock()
        for other in others { other.cancel() }
        if !waits { downstream.value.receive(completion: completion) }
    }

    /// Stores a value with `store`, then sends the pair if there is one and demand.
    private func emit(_ store: () -> Void) {
        delivery.lock()
        defer { delivery.unlock() }
        lock.lock()
        guard let downstream, ending == nil else { return lock.unlock() }
        store()
        guard leftValue.isFilled, rightValue.isFilled else { return lock.unlock() }
        guard demand > 0 else {
            missed = true
            return lock.unlock()
        }
        demand -= 1
        let pair = (leftValue.value, rightValue.value)
        lock.unlock()
        deliver(pair, to: downstream)
    }

    private func deliver(_ pair: (A, B), to downstream: Boxed<AnySubscriber<(A, B), Failure>>) {
        let more = downstream.value.receive(pair)
        if more > 0 { request(more) }
    }

    /// One input's subscriber.
    final class Side<Value>: Subscriber {
        typealias Input = Value
        private let pairing: Pairing
        private let input: PairingInput
        private let receive: (Value) -> Void

        let combineIdentifier = CombineIdentifier()

        init(_ pairing: Pairing, _ input: PairingInput, receive: @escaping (Value) -> Void) {
            self.pairing = pairing
            self.input = input
            self.receive = receive
        }

        func receive(subscription: any Subscription) {
            pairing.subscribed(input, subscription)
        }

        func receive(_ input: Value) -> Subscribers.Demand {
            receive(input)
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            pairing.finished(input, completion)
        }
    }
}
