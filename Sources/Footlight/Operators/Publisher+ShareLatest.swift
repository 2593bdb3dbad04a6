import FootlightJSON

extension Publisher where Failure == Never {
    /// Shares one subscription to this publisher among all subscribers and replays
    /// the latest value to each new one (share-replay of one value).
    ///
    /// The upstream subscription starts with the first subscriber and ends when the
    /// last one cancels (a later subscriber starts a new one, and first gets the value
    /// kept from before). The shared stream does not complete, even when the upstream
    /// does (it keeps replaying the last value). A subscriber that has no demand when a
    /// value comes gets the latest one when it asks for more.
    public func shareLatest() -> AnyPublisher<Output, Never> {
        SharedLatest(upstream: self).eraseToAnyPublisher()
    }
}

/// ``Publisher/shareLatest()``: one hop from the upstream to every subscriber, where
/// the same built from `multicast`, a `CurrentValueSubject` and `autoconnect` took
/// five. A value shared by thousands of sessions' Directors passes through it once per
/// session, so the hops count.
private final class SharedLatest<Upstream: Publisher>: Publisher, @unchecked Sendable
where Upstream.Failure == Never {
    // @unchecked: `upstream` is only subscribed to, and the mutable members are touched
    // only under `lock`.
    typealias Output = Upstream.Output
    typealias Failure = Never

    private let upstream: Upstream
    private let lock = PthreadMutex()
    /// The latest value, once there is one (never emptied again).
    private var kept = ValueSlot<Output>()
    /// The subscribers, in the order they came.
    private var sides: [Side] = []
    /// The subscriber to the upstream, from the first subscriber until the last left.
    private var connection: Connection?

    init(upstream: Upstream) {
        self.upstream = upstream
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let side = Side(share: self, downstream: Boxed(AnySubscriber(subscriber)))
        lock.lock()
        side.missed = kept.isFilled
        sides.append(side)
        let connecting = connection == nil ? Connection(share: self) : nil
        if let connecting { connection = connecting }
        lock.unlock()
        subscriber.receive(subscription: side)
        if let connecting { upstream.subscribe(connecting) }
    }

    fileprivate func publish(_ value: Output) {
        lock.lock()
        kept.fill(value)
        let sides = self.sides
        lock.unlock()
        for side in sides { side.offer(value) }
    }

    /// The latest value; there must be one (a value was published or kept).
    fileprivate var latest: Output {
        lock.lock()
        defer { lock.unlock() }
        return kept.value
    }

    fileprivate func remove(_ side: Side) {
        lock.lock()
        sides.removeAll { $0 === side }
        let disconnecting = sides.isEmpty ? connection : nil
        if sides.isEmpty { connection = nil }
        lock.unlock()
        disconnecting?.cancel()
    }

    /// One subscriber's subscription: its demand, and whether it missed a value for
    /// want of demand. The subscriber is called one call at a time, in order, holding
    /// `delivery` (recursive: it may send into the upstream while it is called), which
    /// is taken before `lock`; `lock` is never held while the subscriber is called.
    fileprivate final class Side: Subscription, @unchecked Sendable {
        // @unchecked: the mutable members are touched only under `lock`.
        private let delivery = PthreadMutex(recursive: true)
        private let lock = PthreadMutex()
        private var share: SharedLatest?
        private var downstream: Boxed<AnySubscriber<Output, Never>>?
        private var demand = Subscribers.Demand.none
        /// A value came (or one was kept before this subscriber came) while it had no
        /// demand: the latest is delivered at its next request (so there is one).
        fileprivate var missed = false

        let combineIdentifier = CombineIdentifier()

        init(share: SharedLatest, downstream: Boxed<AnySubscriber<Output, Never>>) {
            self.share = share
            self.downstream = downstream
        }

        func request(_ more: Subscribers.Demand) {
            delivery.lock()
            defer { delivery.unlock() }
            lock.lock()
            demand += more
            guard missed, demand > 0, let downstream, let share else { return lock.unlock() }
            missed = false
            demand -= 1
            lock.unlock()
            deliver(share.latest, to: downstream)
        }

        func cancel() {
            lock.lock()
            downstream = nil
            let share = self.share
            self.share = nil
            lock.unlock()
            share?.remove(self)
        }

        func offer(_ value: Output) {
            delivery.lock()
            defer { delivery.unlock() }
            lock.lock()
            guard let downstream else { return lock.unlock() }
            guard demand > 0 else {
                missed = true
                return lock.unlock()
            }
            demand -= 1
            let share = self.share  // read under the lock, as `cancel` writes it
            lock.unlock()
            // The latest value, not necessarily `value`: when two threads publish at
            // once, the one that gets here second must not deliver an older value last.
            if let share { deliver(share.latest, to: downstream) } else { deliver(value, to: downstream) }
        }

        private func deliver(_ value: Output, to downstream: Boxed<AnySubscriber<Output, Never>>) {
            let more = downstream.value.receive(value)
            if more > 0 { request(more) }
        }
    }

    /// The one subscriber to the upstream.
    fileprivate final class Connection: Subscriber, Cancellable, @unchecked Sendable {
        // @unchecked: the mutable members are touched only under `lock`.
        typealias Input = Output
        typealias Failure = Never

        private let lock = PthreadMutex()
        private var share: SharedLatest?
        private var subscription: (any Subscription)?
        private var cancelled = false

        let combineIdentifier = CombineIdentifier()

        init(share: SharedLatest) {
            self.share = share
        }

        func receive(subscription: any Subscription) {
            lock.lock()
            let keep = !cancelled && self.subscription == nil
            if keep { self.subscription = subscription }
            lock.unlock()
            if keep { subscription.request(.unlimited) } else { subscription.cancel() }
        }

        func receive(_ input: Output) -> Subscribers.Demand {
            lock.lock()
            let share = self.share
            lock.unlock()
            share?.publish(input)
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) {
            // The shared stream goes on replaying; the upstream is done with.
            lock.lock()
            subscription = nil
            lock.unlock()
        }

        func cancel() {
            lock.lock()
            cancelled = true
            share = nil
            let subscription = self.subscription
            self.subscription = nil
            lock.unlock()
            subscription?.cancel()
        }
    }
}
