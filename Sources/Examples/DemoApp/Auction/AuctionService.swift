import Dispatch
import Footlight
import Foundation
import GRDB
import Logging

/// The live auction: lots and bids shared by every session (a model controller, not a
/// Director). Thread-safe: sessions call it from their own executors.
///
/// Lots and bids live in the kiosk's database (``KioskDatabase``): an accepted bid is
/// written before it is announced, so a restart loses none; the lots' closing times
/// are kept as wall-clock times. Every change (an accepted bid, a lot closing, a lot
/// listed again) is published to each subscriber as a snapshot of all lots, on the
/// executor the subscriber named, in the order the changes happened. Lots close at
/// their ``Lot/closesAt`` on the injected ``AuctionClock``, and, when the service is
/// given a relisting delay, are listed again that long after they closed, for as long
/// as they were listed before, so a long-running kiosk stays alive.
public final class AuctionService: Sendable {
    /// The clock that stamps bids and closes lots.
    public let clock: any AuctionClock

    private struct Subscriber {
        let executor: any SessionExecutor
        let deliver: @Sendable ([Lot]) -> Void
    }
    /// A lot's listing as the database keeps it.
    private struct Listing {
        /// Which listing of the lot this is, from 1; bids belong to one round.
        var round: Int
        /// How long each listing runs.
        let listedFor: Duration
    }
    private struct State {
        var lots: [Lot]
        var listings: [Listing]
        /// Positions in `lots` by id.
        let index: [String: Int]
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriber = 0
    }
    private let state: Locked<State>
    private let database: KioskDatabase
    /// Seconds to add to a time on `clock` to get seconds since 1970.
    private let wallOffset: Double
    private let relistAfter: Duration?
    private let logger: Logger

    /// A service holding `lots` (in catalogue order; ids must be unique, later
    /// duplicates are dropped) in a new database in memory, closing each on `clock`,
    /// never relisting: for tests and benchmarks.
    public convenience init(lots: [Lot], clock: any AuctionClock) {
        // A new database in memory: reading and writing it fails only if SQLite is broken.
        try! self.init(lots: lots, clock: clock, database: KioskDatabase())
    }

    /// A service for `lots` (in catalogue order; later duplicate ids are dropped) whose
    /// state is kept in `database`: a lot the database knows keeps its closing time,
    /// round and bids from there, a new one is listed as given. Lots close on `clock`;
    /// with `relistAfter`, a closed lot is listed again that long after it closed.
    ///
    /// - Throws: ``StoreError`` when the database cannot be read or written.
    public init(
        lots: [Lot], clock: any AuctionClock, database: KioskDatabase, relistAfter: Duration? = nil,
        logger: Logger = Logger(label: "footlight.auction")
    ) throws(StoreError) {
        var unique: [Lot] = []
        var index: [String: Int] = [:]
        for lot in lots where index[lot.id] == nil {
            index[lot.id] = unique.count
            unique.append(lot)
        }
        let now = clock.now
        let wallOffset = Date().timeIntervalSince1970 - now.seconds
        var listings: [Listing] = []
        do {
            try database.writer.write { db in
                for position in unique.indices {
                    let (lot, listing) = try Self.load(unique[position], in: db, now: now, wallOffset: wallOffset)
                    unique[position] = lot
                    listings.append(listing)
                }
            }
        } catch {
            throw StoreError("the auction's lots cannot be read from \(database.location): \(error)")
        }
        self.clock = clock
        self.database = database
        self.wallOffset = wallOffset
        self.relistAfter = relistAfter
        self.logger = logger
        state = Locked(State(lots: unique, listings: listings, index: index))
        for lot in unique {
            if !lot.isClosed {
                scheduleClosing(of: lot.id, at: lot.closesAt)
            } else if let relistAfter {
                scheduleRelisting(of: lot.id, after: relistAfter)
            }
        }
    }

    /// `lot` as the database has it (its closing time, round, state and the bids of
    /// that round), or `lot` as given, now recorded.
    private static func load(_ lot: Lot, in db: Database, now: Duration, wallOffset: Double) throws -> (Lot, Listing) {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT closesAt, listedFor, round, isClosed FROM lot WHERE id = ?", arguments: [lot.id])
        else {
            let listedFor = max(lot.closesAt - now, .zero)
            try db.execute(
                sql: "INSERT INTO lot (id, closesAt, listedFor, round, isClosed) VALUES (?, ?, ?, 1, ?)",
                arguments: [lot.id, lot.closesAt.seconds + wallOffset, listedFor.seconds, lot.isClosed])
            return (lot, Listing(round: 1, listedFor: listedFor))
        }
        let listing = Listing(round: row["round"], listedFor: .seconds(row["listedFor"] as Double))
        var loaded = lot.relisted(closingAt: .seconds((row["closesAt"] as Double) - wallOffset))
        let bids = try Row.fetchAll(
            db, sql: "SELECT bidder, amountCents FROM bid WHERE lotID = ? AND round = ? ORDER BY sequence",
            arguments: [lot.id, listing.round])
        for bid in bids { loaded = loaded.recording(bidOf: bid["amountCents"], by: bid["bidder"]) }
        if row["isClosed"] as Bool { loaded = loaded.closed() }
        return (loaded, listing)
    }

    // MARK: Reading

    /// Every lot, in catalogue order.
    public var lots: [Lot] { state.withLock { $0.lots } }

    /// The lot with `id`, if any.
    public func lot(_ id: String) -> Lot? {
        state.withLock { state in state.index[id].map { state.lots[$0] } }
    }

    /// The bids accepted on a lot's current listing, oldest first.
    public func bids(onLot lotID: String) -> [Bid] {
        guard let round = state.withLock({ state in state.index[lotID].map { state.listings[$0].round } }) else {
            return []
        }
        return fetchBids("lotID = ? AND round = ?", [lotID, round])
    }

    /// The bids an account placed, oldest first.
    public func bids(by bidder: String) -> [Bid] {
        fetchBids("bidder = ?", [bidder])
    }

    private func fetchBids(_ condition: String, _ arguments: StatementArguments) -> [Bid] {
        do {
            return try database.writer.read { db in
                try Row.fetchAll(
                    db,
                    sql:
                        "SELECT sequence, lotID, bidder, amountCents, placedAt FROM bid WHERE \(condition) ORDER BY sequence",
                    arguments: arguments
                ).map { row in
                    Bid(
                        lotID: row["lotID"], bidder: row["bidder"], amountCents: row["amountCents"],
                        placedAt: .seconds((row["placedAt"] as Double) - wallOffset), sequence: row["sequence"])
                }
            }
        } catch {
            logger.error("the bids cannot be read from \(database.location): \(error)")
            return []
        }
    }

    // MARK: Bidding

    /// Places a bid of `amountCents` on a lot for the account `bidder`. Accepted when
    /// the lot is open and the amount is at least its ``Lot/minimumNextBidCents``, and
    /// then written to the database before it is announced.
    public func placeBid(lotID: String, amountCents: Int, bidder: String) -> Result<Bid, BidError> {
        guard !bidder.isEmpty else { return .failure(.missingBidder) }
        return state.withLock { state -> Result<Bid, BidError> in
            // Read under the lock, so bid times never go backwards in sequence order.
            let now = clock.now
            guard let position = state.index[lotID] else { return .failure(.unknownLot(id: lotID)) }
            let lot = state.lots[position]
            guard lot.isOpen(at: now) else {
                if !lot.isClosed { close(position, in: &state) }
                return .failure(.lotClosed(id: lotID))
            }
            guard amountCents >= lot.minimumNextBidCents else {
                return .failure(.tooLow(minimumCents: lot.minimumNextBidCents))
            }
            let sequence: Int64
            do {
                sequence = try database.writer.write { db in
                    try db.execute(
                        sql: "INSERT INTO bid (lotID, round, bidder, amountCents, placedAt) VALUES (?, ?, ?, ?, ?)",
                        arguments: [
                            lotID, state.listings[position].round, bidder, amountCents, now.seconds + wallOffset,
                        ])
                    return db.lastInsertedRowID
                }
            } catch {
                logger.error("a bid on \(lotID) could not be recorded in \(database.location): \(error)")
                return .failure(.notRecorded)
            }
            let bid = Bid(
                lotID: lotID, bidder: bidder, amountCents: amountCents, placedAt: now, sequence: Int(sequence))
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

    /// Closes the lot at `position` (the lock held), records it, announces it, and
    /// schedules its relisting.
    private func close(_ position: Int, in state: inout State) {
        let lotID = state.lots[position].id
        state.lots[position] = state.lots[position].closed()
        database.writeOrLog("the closing of \(lotID)", to: logger) { db in
            try db.execute(sql: "UPDATE lot SET isClosed = 1 WHERE id = ?", arguments: [lotID])
        }
        Self.publish(&state)
        if let relistAfter { scheduleRelisting(of: lotID, after: relistAfter) }
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
            close(position, in: &state)
            return nil
        }
        if let early { scheduleClosing(of: lotID, at: early) }
    }

    private func scheduleRelisting(of lotID: String, after delay: Duration) {
        clock.schedule(after: delay) { [weak self] in self?.relist(lotID) }
    }

    /// Lists a closed lot again, with no bids, for as long as its listing runs.
    private func relist(_ lotID: String) {
        let closesAt = state.withLock { state -> Duration? in
            guard let position = state.index[lotID], state.lots[position].isClosed else { return nil }
            var listing = state.listings[position]
            listing.round += 1
            let closesAt = clock.now + listing.listedFor
            let (round, wall) = (listing.round, closesAt.seconds + wallOffset)
            database.writeOrLog("the relisting of \(lotID)", to: logger) { db in
                try db.execute(
                    sql: "UPDATE lot SET round = ?, closesAt = ?, isClosed = 0 WHERE id = ?",
                    arguments: [round, wall, lotID])
            }
            state.listings[position] = listing
            state.lots[position] = state.lots[position].relisted(closingAt: closesAt)
            Self.publish(&state)
            return closesAt
        }
        if let closesAt { scheduleClosing(of: lotID, at: closesAt) }
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
