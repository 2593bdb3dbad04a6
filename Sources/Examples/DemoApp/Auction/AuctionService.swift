import Dispatch
import Footlight
import Foundation
import GRDB
import Logging

/// The live auction: lots and bids shared by every session (a model controller, not a
/// Director). Thread-safe: sessions call it from their own executors.
///
/// Lots and bids live in a ledger (``AuctionLedger``): the kiosk's SQLite database on
/// one node, Redis across nodes. The ledger decides, atomically, whether a bid is
/// accepted, and it is written there before it is announced, so a restart loses none;
/// closing times are kept as wall-clock times. The service keeps each lot's latest
/// record, and every change (an accepted bid, a lot closing, a lot listed again) is
/// published to each subscriber as a snapshot of all lots, on the executor the
/// subscriber named. Given a pub/sub shared by the nodes, each change made here is
/// published there too, and the changes other nodes make arrive through it: a record
/// is applied only when it is newer than the one kept, so each change reaches the
/// sessions once, whatever the order it arrives in. Lots close at their
/// ``Lot/closesAt`` on the injected ``AuctionClock`` and, with a relisting delay, are
/// listed again that long after they closed, for as long as they were listed before,
/// so a long-running kiosk stays alive (every node tries; the ledger lets one win).
public final class AuctionService: Sendable {
    /// The clock that stamps bids and closes lots.
    public let clock: any AuctionClock

    private struct Subscriber {
        let executor: any SessionExecutor
        let deliver: @Sendable ([Lot]) -> Void
    }
    private struct State {
        var lots: [Lot]
        /// The ledger's record of each lot, as last applied.
        var records: [LotRecord]
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriber = 0
    }
    private let state: Locked<State>
    /// Positions in the lots by id.
    private let index: [String: Int]
    /// The lots as listed at start (their static parts: titles, starting prices).
    private let listed: [Lot]
    private let ledger: any AuctionLedger
    /// Seconds to add to a time on `clock` to get seconds since 1970.
    private let wallOffset: Double
    private let relistAfter: Duration?
    private let logger: Logger
    private let pubSub: (any PubSub)?
    private let changesFromOtherNodes = Locked<PubSubSubscription?>(nil)

    /// The pub/sub topic of the lots' records.
    static let topic = "auction.lots"

    /// A service holding `lots` (in catalogue order; ids must be unique, later
    /// duplicates are dropped) in a new database in memory, closing each on `clock`,
    /// never relisting: for tests and benchmarks.
    public convenience init(lots: [Lot], clock: any AuctionClock) {
        // A new database in memory: reading and writing it fails only if SQLite is broken.
        try! self.init(lots: lots, clock: clock, database: KioskDatabase())
    }

    /// A service for `lots` whose state is kept in `database` (see
    /// ``init(lots:clock:ledger:relistAfter:pubSub:logger:)``).
    public convenience init(
        lots: [Lot], clock: any AuctionClock, database: KioskDatabase, relistAfter: Duration? = nil,
        logger: Logger = Logger(label: "footlight.auction")
    ) throws(StoreError) {
        try self.init(
            lots: lots, clock: clock, ledger: SQLiteAuctionLedger(database: database, logger: logger),
            relistAfter: relistAfter, logger: logger)
    }

    /// A service for `lots` (in catalogue order; later duplicate ids are dropped) whose
    /// state is kept in `ledger`: a lot the ledger knows keeps its closing time, round
    /// and bids from there, a new one is listed as given. Lots close on `clock`; with
    /// `relistAfter`, a closed lot is listed again that long after it closed. With a
    /// `pubSub` shared by several nodes (on one ledger), each node's changes reach the
    /// others' sessions.
    ///
    /// - Throws: ``StoreError`` when the ledger cannot be read or written.
    public init(
        lots: [Lot], clock: any AuctionClock, ledger: any AuctionLedger, relistAfter: Duration? = nil,
        pubSub: (any PubSub)? = nil, logger: Logger = Logger(label: "footlight.auction")
    ) throws(StoreError) {
        var unique: [Lot] = []
        var index: [String: Int] = [:]
        for lot in lots where index[lot.id] == nil {
            index[lot.id] = unique.count
            unique.append(lot)
        }
        let now = clock.now
        let wallOffset = Date().timeIntervalSince1970 - now.seconds
        let opened = try ledger.open(
            unique.map { lot in
                let listedFor = max(lot.closesAt - now, .zero)
                return (
                    lot.id,
                    LotRecord(
                        closesAt: lot.closesAt.seconds + wallOffset, listedFor: listedFor.seconds, round: 1,
                        isClosed: lot.isClosed, bidCount: lot.bidCount,
                        highCents: lot.bidCount > 0 ? lot.currentBidCents : 0, highBidder: lot.highestBidder,
                        version: 1)
                )
            })
        var records: [LotRecord] = []
        for lot in unique {
            guard let record = opened[lot.id] else {
                throw StoreError("\(ledger.location) did not record lot \(lot.id)")
            }
            records.append(record)
        }
        self.clock = clock
        self.ledger = ledger
        self.wallOffset = wallOffset
        self.relistAfter = relistAfter
        self.logger = logger
        self.pubSub = pubSub
        self.index = index
        listed = unique
        state = Locked(
            State(lots: zip(unique, records).map { $0.with($1, wallOffset: wallOffset) }, records: records))
        if let pubSub {
            let queue = DispatchQueue(label: "footlight.auction.sync")
            let subscription = pubSub.subscribe(to: Self.topic, on: queue) { [weak self] event in
                self?.receive(event)
            }
            changesFromOtherNodes.withLock { $0 = subscription }
        }
        for (position, record) in records.enumerated() { schedule(position, after: nil, record) }
    }

    // MARK: Reading

    /// Every lot, in catalogue order.
    public var lots: [Lot] { state.withLock { $0.lots } }

    /// The lot with `id`, if any.
    public func lot(_ id: String) -> Lot? {
        guard let position = index[id] else { return nil }
        return state.withLock { $0.lots[position] }
    }

    /// The bids accepted on a lot's current listing, oldest first.
    public func bids(onLot lotID: String) -> [Bid] {
        guard let position = index[lotID] else { return [] }
        let round = state.withLock { $0.records[position].round }
        return readBids { () throws(StoreError) in try ledger.bids(onLot: lotID, round: round) }
    }

    /// The bids on a lot's current listing, page by page (nil when there is no such lot).
    public func bidPages(onLot lotID: String, pageSize: Int) -> BidPages? {
        guard let position = index[lotID] else { return nil }
        let round = state.withLock { $0.records[position].round }
        return BidPages(ledger: ledger, lotID: lotID, round: round, pageSize: pageSize)
    }

    /// The bids an account placed, oldest first.
    public func bids(by bidder: String) -> [Bid] {
        readBids { () throws(StoreError) in try ledger.bids(by: bidder) }
    }

    private func readBids(_ read: () throws(StoreError) -> [StoredBid]) -> [Bid] {
        do {
            return try read().map { bid in
                Bid(
                    lotID: bid.lotID, bidder: bid.bidder, amountCents: bid.amountCents,
                    placedAt: .seconds(bid.placedAt - wallOffset), sequence: bid.sequence)
            }
        } catch {
            logger.error("\(error)")
            return []
        }
    }

    // MARK: Bidding

    /// Places a bid of `amountCents` on a lot for the account `bidder`. Accepted when
    /// the lot is open and the amount is at least its ``Lot/minimumNextBidCents`` (as
    /// the ledger has the lot: a bid placed on another node counts), and then written
    /// to the ledger before it is announced.
    public func placeBid(lotID: String, amountCents: Int, bidder: String) -> Result<Bid, BidError> {
        guard !bidder.isEmpty else { return .failure(.missingBidder) }
        guard let position = index[lotID] else { return .failure(.unknownLot(id: lotID)) }
        let (clock, wallOffset) = (self.clock, self.wallOffset)
        // The clock's reading, so a bid the ledger kept at that time gets it exactly (a
        // wall-clock time in seconds since 1970 holds about a tenth of a microsecond).
        let reading = Locked(Duration.zero)
        let placed = ledger.placeBid(
            on: lotID, amountCents: amountCents, bidder: bidder,
            startingPriceCents: listed[position].startingPriceCents,
            now: {
                let now = clock.now
                reading.withLock { $0 = now }
                return now.seconds + wallOffset
            })
        switch placed {
        case .success(let (bid, record)):
            apply(record, at: position, announce: true)
            let now = reading.withLock { $0 }
            let placedAt = bid.placedAt == now.seconds + wallOffset ? now : .seconds(bid.placedAt - wallOffset)
            return .success(
                Bid(lotID: lotID, bidder: bidder, amountCents: amountCents, placedAt: placedAt, sequence: bid.sequence))
        case .failure(.lotClosed(let id)):
            // Closed in the ledger, or due by this node's clock: record it now rather than
            // at the timer (which is set already, so none is added when it is not due).
            closeIfDue(position, settingTimer: false)
            return .failure(.lotClosed(id: id))
        case .failure(.notRecorded):
            // The ledger may have taken the bid before the answer was lost: show what it
            // holds, here and on the other nodes.
            refresh(position)
            return .failure(.notRecorded)
        case .failure(let error):
            return .failure(error)
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

    /// Keeps `record` for the lot at `position` if it is newer than the one kept, tells
    /// the subscribers, schedules what comes next (its closing, its relisting) and, for
    /// a change made here (`announce`), tells the other nodes.
    private func apply(_ record: LotRecord, at position: Int, announce: Bool) {
        let previous = state.withLock { state -> LotRecord? in
            let previous = state.records[position]
            guard record.version > previous.version else { return nil }
            state.records[position] = record
            state.lots[position] = listed[position].with(record, wallOffset: wallOffset)
            Self.publish(&state)
            return previous
        }
        guard let previous else { return }
        schedule(position, after: previous, record)
        guard announce, let pubSub else { return }
        do {
            try pubSub.publish(record.json(lotID: listed[position].id), to: Self.topic)
        } catch {
            logger.error("the other nodes were not told of a change to \(listed[position].id): \(error)")
        }
    }

    /// Sets the timer a new record needs: its closing when it is open in a new round
    /// (or at start), its relisting when it has just closed.
    private func schedule(_ position: Int, after previous: LotRecord?, _ record: LotRecord) {
        if !record.isClosed {
            guard previous == nil || previous?.round != record.round || previous?.isClosed == true else { return }
            scheduleClosing(of: position, at: .seconds(record.closesAt - wallOffset))
        } else if let relistAfter, previous?.isClosed != true || previous?.round != record.round {
            clock.schedule(after: relistAfter) { [weak self] in self?.relist(position, round: record.round) }
        }
    }

    /// How long a closing or relisting the ledger could not record waits to be tried again.
    static let retryAfter: Duration = .seconds(1)

    private func scheduleClosing(of position: Int, at closesAt: Duration) {
        clock.schedule(after: closesAt - clock.now) { [weak self] in self?.closeIfDue(position) }
    }

    /// Closes a lot whose time has come; a timer that fired early is set again (unless
    /// `settingTimer` is false), and a closing the ledger could not record is tried
    /// again a little later.
    private func closeIfDue(_ position: Int, settingTimer: Bool = true) {
        let record = state.withLock { $0.records[position] }
        guard !record.isClosed else { return }
        let now = clock.now
        let closesAt = Duration.seconds(record.closesAt - wallOffset)
        guard now >= closesAt else {
            if settingTimer { scheduleClosing(of: position, at: closesAt) }
            return
        }
        do {
            guard
                let (closed, changed) = try ledger.close(
                    listed[position].id, round: record.round, now: now.seconds + wallOffset)
            else { return }
            apply(closed, at: position, announce: changed)
        } catch {
            logger.error("\(error); trying again in \(Self.retryAfter)")
            clock.schedule(after: Self.retryAfter) { [weak self] in self?.closeIfDue(position) }
        }
    }

    /// Lists a lot closed in `round` again, with no bids, for as long as its listing runs.
    private func relist(_ position: Int, round: Int) {
        let record = state.withLock { $0.records[position] }
        guard record.isClosed, record.round == round else { return }
        let closesAt = clock.now.seconds + wallOffset + record.listedFor
        do {
            guard let (relisted, changed) = try ledger.relist(listed[position].id, round: round, closesAt: closesAt)
            else { return }
            apply(relisted, at: position, announce: changed)
        } catch {
            logger.error("\(error); trying again in \(Self.retryAfter)")
            clock.schedule(after: Self.retryAfter) { [weak self] in self?.relist(position, round: round) }
        }
    }

    /// Reads a lot's record from the ledger again, and applies and announces it if it is
    /// newer than the one held.
    private func refresh(_ position: Int) {
        do {
            if let record = try ledger.records([listed[position].id])[listed[position].id] {
                apply(record, at: position, announce: true)
            }
        } catch {
            logger.error("\(error)")
        }
    }

    /// A lot's record from another node, or word that some may have been missed (then
    /// every lot is read from the ledger again).
    private func receive(_ event: PubSubEvent) {
        switch event {
        case .message(let message):
            guard let (lotID, record) = LotRecord.from(message), let position = index[lotID] else {
                logger.warning("a message on \(Self.topic) is not a record of a lot listed here; dropped")
                return
            }
            apply(record, at: position, announce: false)
        case .missed:
            do {
                let records = try ledger.records(listed.map(\.id))
                for (lotID, record) in records {
                    if let position = index[lotID] { apply(record, at: position, announce: false) }
                }
            } catch {
                logger.error("\(error)")
            }
        }
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

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
