import Footlight

/// What every kiosk session shares: the live auction, the accounts, and how fast the
/// page's clocks tick. Made once per server.
public struct KioskServices: Sendable {
    /// The live auction.
    public let auction: AuctionService
    /// Every account.
    public let accounts: AccountDirectory
    /// How often "time left" is recomputed.
    public let tick: Duration
    /// How long a bid or a sign-in takes to answer (a simulated network round trip).
    public let latency: Duration

    public init(
        auction: AuctionService, accounts: AccountDirectory = AccountDirectory(), tick: Duration = .seconds(1),
        latency: Duration = .milliseconds(300)
    ) {
        self.auction = auction
        self.accounts = accounts
        self.tick = tick
        self.latency = latency
    }
}

/// One session's kiosk state: who is signed in. Used on the session's queue.
public final class KioskSession {
    /// The shared services.
    public let services: KioskServices
    /// The signed-in account, nil when signed out.
    public let account = CurrentValueSubject<Account?, Never>(nil)

    public init(services: KioskServices) {
        self.services = services
    }

    /// The session's view of the accounts, answering on `context`'s clock.
    func accounts(on context: Context) -> any AccountService {
        SessionAccounts(directory: services.accounts, clock: context.environment.clock, latency: services.latency)
    }

    /// The auction clock's time, ticking on `context`'s clock.
    func now(on context: Context) -> AnyPublisher<Duration, Never> {
        let auctionClock = services.auction.clock
        return ClockTicks.every(services.tick, on: context.environment.clock) { auctionClock.now }
    }

    /// Starts the account flow as modals over the page; the session is signed in as
    /// soon as the user has an account. `signingIn` starts at the sign-in form.
    func startAccountFlow(on context: Context, signingIn: Bool) {
        let account = self.account
        SignupFlow(
            screens: ContextAccountScreens(context: context, accounts: accounts(on: context)),
            signedIn: { account.send($0) }
        )
        .start(signingIn: signingIn)
    }
}
