import Dispatch
import Footlight

/// The live auction: lots and bids shared by every session (a model controller, not a
/// Director). Thread-safe: sessions call it from their own executors.
///
/// Every change (an accepted bid, a lot closing) is published to each subscriber as a
/// snapshot of all lots, on the executor the subscriber named, in the order the changes
/// happened. Lots close at their ``Lot/closesAt`` on the injected ``AuctionClock``.
public final class AuctionService: Sendable {
    /// The clock that stamps bids and closes lots.
    public let clock: any AuctionClock

    private struct Subscriber {
        let executor: any SessionExecutor
        let deliver: @Sendable ([Lot]) -> Void
    }
    private struct State {
        var lots: [Lot]
        var index: [String: Int]
        var bids: [Bid] = []
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriber = 0
    }
    private let state: Locked<State>

    /// A service holding `lots` (in catalogue order; ids must be unique, later
    /// duplicates are dropped), closing each on `clock`.
    public init(lots: [Lot], clock: any AuctionClock) {
        var unique: [Lot] = []
        var index: [String: Int] = [:]
        for lot in lots where index[lot.id] == nil {
            index[lot.id] = unique.count
            unique.append(lot)
        }
        self.clock = clock
        state = Locked(State(lots: unique, index: index))
        for lot in unique where !lot.isClosed {
            scheduleClosing(of: lot.id, at: lot.closesAt)
        }
    }

    // MARK: Reading

    /// Every lot, in catalogue order.
    public var lots: [Lot] { state.withLock { $0.lots } }

    /// The lot with `id`, if any.
    public func lot(_ id: String) -> Lot? {
        state.withLock { state in state.index[id].map { state.lots[$0] } }
    }

    /// The bids accepted on a lot, oldest first.
    public func bids(onLot lotID: String) -> [Bid] {
        state.withLock { $0.bids.filter { $0.lotID == lotID } }
    }

    /// The bids an account placed, oldest first.
    public func bids(by bidder: String) -> [Bid] {
        state.withLock { $0.bids.filter { $0.bidder == bidder } }
    }

    // MARK: Bidding

    /// Places a bid of `amountCents` on a lot for the account `bidder`. Accepted when
    /// the lot is open and the amount is at least its ``Lot/minimumNextBidCents``.
    public func placeBid(lotID: String, amountCents: Int, bidder: String) -> Result<Bid, BidError> {
        guard !bidder.isEmpty else { return .failure(.missingBidder) }
        return state.withLock { state -> Result<Bid, BidError> in
            // Read under the lock, so bid times never go backwards in sequence order.
            let now = clock.now
            guard let position = state.index[lotID] else { return .failure(.unknownLot(id: lotID)) }
            let lot = state.lots[position]
            guard lot.isOpen(at: now) else {
                if !lot.isClosed {
                    state.lots[position] = lot.closed()
                    Self.publish(&state)
                }
                return .failure(.lotClosed(id: lotID))
            }
            guard amountCents >= lot.minimumNextBidCents else {
                return .failure(.tooLow(minimumCents: lot.minimumNextBidCents))
            }
            let bid = Bid(
                lotID: lotID, bidder: bidder, amountCents: amountCents, placedAt: now,
                sequence: state.bids.count + 1)
            state.bids.append(bid)
            state.lots[position] = lot.recording(bidOf: amountCents, by: bidder)
            Self.publish(&state)
            return .success(bid)
        }
    }

    // MARK: Subscribing

    /// Calls `deliver` on `executor` with a snapshot of all lots after every change, until
    /// the returned subscription is cancelled. Returns the current lots too, taken
    /// atomically with the registration, so no change falls between them.
    public func subscribe(
        on executor: any SessionExecutor, _ deliver: @escaping @Sendable ([Lot]) -> Void
    ) -> (current: [Lot], subscription: AuctionSubscription) {
        let (current, id) = state.withLock { state in
            let id = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[id] = Subscriber(executor: executor, deliver: deliver)
            return (state.lots, id)
        }
        return (current, AuctionSubscription { [weak self] in self?.unsubscribe(id) })
    }

    /// All lots: the current ones at subscription, then a snapshot after every change,
    /// delivered on `executor`. Subscribe on `executor` (a session's, where its
    /// Directors run), so nothing is delivered before the subscription is in place.
    public func lotsPublisher(on executor: any SessionExecutor) -> AnyPublisher<[Lot], Never> {
        Deferred { [self] () -> AnyPublisher<[Lot], Never> in
            let subject = PassthroughSubject<[Lot], Never>()
            // The subject is sent to only on `executor`, where the subscriber lives.
            nonisolated(unsafe) let target = subject
            let (current, subscription) = subscribe(on: executor) { lots in target.send(lots) }
            return subject.prepend(current)
                .handleEvents(receiveCancel: { subscription.cancel() })
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    /// One lot (nil if there is no such lot), as ``lotsPublisher(on:)`` delivers it,
    /// without repeats when other lots change.
    public func lotPublisher(id: String, on executor: any SessionExecutor) -> AnyPublisher<Lot?, Never> {
        Self.lot(id, in: lotsPublisher(on: executor))
    }

    /// The lot with `id` in a stream of all lots (nil when there is none), without
    /// repeats when other lots change.
    public static func lot(_ id: String, in lots: AnyPublisher<[Lot], Never>) -> AnyPublisher<Lot?, Never> {
        lots.map { lots in lots.first { $0.id == id } }.removeDuplicates().eraseToAnyPublisher()
    }

    /// How many subscribers are registered (for tests and diagnostics).
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    // MARK: Private

    private func unsubscribe(_ id: Int) {
        state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
    }

    /// Hands the new snapshot to every subscriber's executor. Called with the lock held,
    /// so deliveries are enqueued in the order of the changes (`execute` never waits
    /// and never runs the work inline).
    private static func publish(_ state: inout State) {
        let lots = state.lots
        for subscriber in state.subscribers.values {
            let deliver = subscriber.deliver
            subscriber.executor.execute { deliver(lots) }
        }
    }

    private func scheduleClosing(of lotID: String, at closesAt: Duration) {
        clock.schedule(after: closesAt - clock.now) { [weak self] in self?.closeIfDue(lotID) }
    }

    /// Closes a lot whose time has come; a timer that fired early is set again.
    private func closeIfDue(_ lotID: String) {
        let now = clock.now
        let early = state.withLock { state -> Duration? in
            guard let position = state.index[lotID], !state.lots[position].isClosed else { return nil }
            let lot = state.lots[position]
            guard now >= lot.closesAt else { return lot.closesAt }
            state.lots[position] = lot.closed()
            Self.publish(&state)
            return nil
        }
        if let early { scheduleClosing(of: lotID, at: early) }
    }
}

/// A registration with the auction service; ``cancel()`` ends the deliveries (those
/// already enqueued still run).
public final class AuctionSubscription: Cancellable, Sendable {
    private let onCancel: @Sendable () -> Void

    init(cancel: @escaping @Sendable () -> Void) {
        onCancel = cancel
    }

    public func cancel() { onCancel() }
}
