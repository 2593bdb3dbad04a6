import DemoApp
import Dispatch
import Footlight

/// The kiosk's model and Director tests, nested here so `--filter Auction` selects
/// them all.
enum AuctionTests {}

/// Lots for tests, built the way the service builds them.
enum AuctionFixtures {
    /// Lot `number` ("lot-<number>") with the bids `bids` (each by `bidder`) already
    /// accepted, closing at `closesAt`.
    static func lot(
        _ number: Int, title: String? = nil, artist: String = "Ada Lindqvist", startingCents: Int = 10_000,
        bids: [Int] = [], bidder: String = "paddle-1", closesAt: Duration = .seconds(3_600), closed: Bool = false
    ) -> Lot {
        var lot = Lot(
            id: "lot-\(number)", number: number, title: title ?? "Work \(number)", artist: artist,
            medium: "Oil on canvas", year: 1950 + number, summary: "A work.",
            artwork: Artwork(kind: .landscape, hue: 10 * number), startingPriceCents: startingCents,
            closesAt: closesAt)
        for amount in bids { lot = lot.recording(bidOf: amount, by: bidder) }
        return closed ? lot.closed() : lot
    }
}

/// A kiosk for scene tests: a live auction of two lots, Zephyr (lot 1, starting at
/// `zephyrCents`) and Aurora (lot 2, at $500), on a manual clock; accounts hashed at
/// the least cost, a tick each second, and 300 ms to answer a sign-in or a bid.
struct KioskFixture {
    let auctionClock = ManualAuctionClock()
    let auction: AuctionService
    let services: KioskServices

    init(zephyrCents: Int) {
        auction = AuctionService(
            lots: [
                AuctionFixtures.lot(1, title: "Zephyr", startingCents: zephyrCents),
                AuctionFixtures.lot(2, title: "Aurora", startingCents: 50_000),
            ], clock: auctionClock)
        services = KioskServices(
            auction: auction, accounts: AccountDirectory(cost: .minimal), tick: .seconds(1), latency: .milliseconds(300)
        )
    }
}

/// Every value a publisher emits, in order (used on one thread).
final class Recording<Value> {
    private(set) var values: [Value] = []
    private var subscription: AnyCancellable?

    init<Source: Publisher>(_ source: Source) where Source.Output == Value, Source.Failure == Never {
        subscription = source.sink { [weak self] value in self?.values.append(value) }
    }

    var last: Value? { values.last }

    func cancel() { subscription?.cancel() }
}

/// Values appended from any thread.
final class LockedList<Value: Sendable>: Sendable {
    private let storage = Locked<[Value]>([])

    func append(_ value: Value) { storage.withLock { $0.append(value) } }

    var values: [Value] { storage.withLock { $0 } }
}

/// A serial queue that knows its own name, to check where a delivery ran.
struct NamedQueue {
    static let key = DispatchSpecificKey<String>()
    let name: String
    let queue: DispatchQueue

    init(_ name: String) {
        self.name = name
        queue = DispatchQueue(label: name)
        queue.setSpecific(key: Self.key, value: name)
    }

    /// The name of the named queue the caller runs on, if any.
    static var current: String? { DispatchQueue.getSpecific(key: key) }

    /// Waits until everything enqueued so far has run.
    func flush() { queue.sync {} }
}

/// Bidding that records each request and answers only when the test says so.
final class FakeBidding: BidPlacing {
    private(set) var requests: [BidRequest] = []
    private var pending: [PassthroughSubject<Bid, any Error>] = []

    func placeBid(_ request: BidRequest) -> AnyPublisher<Bid, any Error> {
        requests.append(request)
        let answer = PassthroughSubject<Bid, any Error>()
        pending.append(answer)
        return answer.eraseToAnyPublisher()
    }

    /// Accepts the oldest unanswered request.
    func accept(sequence: Int = 1) {
        guard !pending.isEmpty else { return }
        let answer = pending.removeFirst()
        let request = requests[requests.count - pending.count - 1]
        answer.send(
            Bid(
                lotID: request.lotID, bidder: request.bidder, amountCents: request.amountCents, placedAt: .zero,
                sequence: sequence))
        answer.send(completion: .finished)
    }

    /// Refuses the oldest unanswered request with `error`.
    func refuse(_ error: any Error) {
        guard !pending.isEmpty else { return }
        pending.removeFirst().send(completion: .failure(error))
    }
}
