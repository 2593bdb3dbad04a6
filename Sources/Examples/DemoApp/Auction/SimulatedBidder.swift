import Footlight

/// Places a bid on a random open lot every ``interval`` on the auction clock, for a
/// random one of a few made-up paddles, so the kiosk is alive when opened alone.
///
/// The randomness is injected: pass a ``SeededRandom`` to replay a run.
public final class SimulatedBidder<Random: RandomNumberGenerator & Sendable>: Sendable {
    /// The account ids the simulated bids are placed for.
    public static var paddles: [String] { ["paddle-104", "paddle-221", "paddle-318", "paddle-442", "paddle-507"] }

    /// The time between bids.
    public let interval: Duration
    private let service: AuctionService
    private struct State {
        var random: Random
        var timer: ScheduledAction?
        var running = false
    }
    private let state: Locked<State>

    /// A bidder for `service`, bidding every `interval` once started.
    public init(service: AuctionService, interval: Duration = .seconds(6), random: Random) {
        self.service = service
        self.interval = interval
        state = Locked(State(random: random))
    }

    /// Starts bidding on the service's clock (the first bid one interval from now).
    public func start() {
        let started = state.withLock { state -> Bool in
            guard !state.running else { return false }
            state.running = true
            return true
        }
        if started { scheduleNext() }
    }

    /// Stops bidding; a bid already due does not happen.
    public func stop() {
        let timer = state.withLock { state -> ScheduledAction? in
            state.running = false
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }

    /// Places one bid now: on a random open lot, the minimum next bid plus zero to two
    /// increments. Returns the accepted bid, or nil when no lot is open (or another bid
    /// got in first).
    @discardableResult
    public func placeRandomBid() -> Bid? {
        let now = service.clock.now
        let open = service.lots.filter { $0.isOpen(at: now) }
        let choice = state.withLock { state -> (Lot, Int, String)? in
            guard let lot = open.randomElement(using: &state.random),
                let paddle = Self.paddles.randomElement(using: &state.random)
            else { return nil }
            let extra = Int.random(in: 0...2, using: &state.random)
            let amount = lot.minimumNextBidCents + extra * Lot.minimumIncrement(above: lot.currentBidCents)
            return (lot, amount, paddle)
        }
        guard let (lot, amount, paddle) = choice else { return nil }
        return try? service.placeBid(lotID: lot.id, amountCents: amount, bidder: paddle).get()
    }

    private func scheduleNext() {
        let timer = service.clock.schedule(after: interval) { [weak self] in
            guard let self, self.state.withLock({ $0.running }) else { return }
            self.placeRandomBid()
            self.scheduleNext()
        }
        let keep = state.withLock { state -> Bool in
            if state.running { state.timer = timer }
            return state.running
        }
        if !keep { timer.cancel() }
    }
}
