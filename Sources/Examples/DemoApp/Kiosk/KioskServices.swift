import Footlight
import FootlightJSON
import Foundation
import Logging

/// What every kiosk session shares: the live auction, the accounts, and how fast the
/// page's clocks tick. Made once per server.
public struct KioskServices: Sendable {
    /// The live auction.
    public let auction: AuctionService
    /// Every account.
    public let accounts: AccountDirectory
    /// The language each visitor chose.
    public let languages: VisitorLanguages
    /// The accounts' pictures.
    public let avatars: AvatarStore
    /// How often "time left" is recomputed.
    public let tick: Duration
    /// How long a bid or a sign-in takes to answer (a simulated network round trip).
    public let latency: Duration
    /// Where sign-ups and sign-ins hash passwords, off the sessions' loops (nil: on the
    /// session's clock, as tests with a manual clock need).
    public let accountWork: BlockingWork?
    /// Makes the listings' rows once for every session showing them.
    public let rowFormatter = LotRowFormatter()
    /// Where sessions tell each other about sign-outs: in this process, or on every
    /// node through a backplane.
    public let pubSub: any PubSub
    let logger: Logger

    /// The default accounts, languages and pictures are throwaway ones, in memory (tests,
    /// benchmarks); the demo server passes its database's, and its Redis pub/sub when it
    /// has one.
    public init(
        auction: AuctionService, accounts: AccountDirectory = AccountDirectory(cost: .minimal),
        languages: VisitorLanguages = VisitorLanguages(), avatars: AvatarStore = AvatarStore(),
        accountWork: BlockingWork? = nil,
        tick: Duration = .seconds(1), latency: Duration = .milliseconds(300), pubSub: any PubSub = LocalPubSub(),
        logger: Logger = Logger(label: "footlight.kiosk")
    ) {
        self.auction = auction
        self.accounts = accounts
        self.languages = languages
        self.avatars = avatars
        self.accountWork = accountWork
        self.tick = tick
        self.latency = latency
        self.pubSub = pubSub
        self.logger = logger
    }
}

/// One session's kiosk state: who is signed in, and the live streams its scenes share
/// (one subscription to the auction and one ticker per session, however many scenes
/// show lots). Used on the session's queue.
public final class KioskSession {
    /// The shared services.
    public let services: KioskServices
    /// The signed-in account, nil when signed out: at first the account the visitor
    /// (``SessionRequest/visitor``) is signed in to, and every change is remembered for
    /// the visitor's other and later sessions.
    public let account: CurrentValueSubject<Account?, Never>
    /// The language the session's pages speak: at first the one the visitor chose last
    /// (``VisitorLanguages``), else the one the browser asks for
    /// (``KioskLanguage/preferred(by:)``); the listings' language switch changes it, and
    /// the change is remembered for the visitor's later sessions (tabs already open keep
    /// theirs).
    public let language: CurrentValueSubject<KioskLanguage, Never>
    /// Every lot, live.
    let lots: AnyPublisher<[Lot], Never>
    /// The auction clock's time, ticking on the session's clock.
    let now: AnyPublisher<Duration, Never>
    /// The accounts, answering on the session's clock.
    let accounts: any AccountService

    /// The state of a session running in `environment`. When the visitor signs out in
    /// another of their sessions, on any node, this one, if signed in, calls
    /// `startOver` (a server's ``Context/startOver(reason:)``), so no tab stays signed in.
    public init(
        services: KioskServices, environment: SessionEnvironment, startOver: @escaping (String) -> Void = { _ in }
    ) {
        self.services = services
        let auctionClock = services.auction.clock
        lots = services.auction.lotsPublisher(on: environment.executor).shareLatest()
        now = ClockTicks.every(services.tick, on: environment.clock) { auctionClock.now }.shareLatest()
        accounts = SessionAccounts(
            directory: services.accounts, clock: environment.clock, latency: services.latency,
            work: services.accountWork)
        let visitor = environment.request.visitor
        let languages = services.languages
        language = CurrentValueSubject(
            visitor.flatMap { languages.language(of: $0) } ?? KioskLanguage.preferred(by: environment.request))
        choosing = language.dropFirst().removeDuplicates().sink { language in
            if let visitor { languages.remember(language, for: visitor) }
        }
        let directory = services.accounts
        account = CurrentValueSubject(visitor.flatMap { directory.account(signedInBy: $0) })
        let topic = visitor.map { "signed-out/\($0.rawValue)" }
        let (pubSub, logger, marker) = (services.pubSub, services.logger, self.marker)
        remembering = account.dropFirst().removeDuplicates().sink { account in
            guard let visitor, let topic else { return }
            if let account {
                directory.remember(account, signedInBy: visitor)
                return
            }
            directory.forget(visitor)
            do {
                try pubSub.publish(["session": .string(marker)], to: topic)
            } catch {
                logger.error("the visitor's other sessions were not told of a sign-out: \(error)")
            }
        }
        if let topic {
            // Delivered on this session's executor, where `startOver` and `account` are used.
            nonisolated(unsafe) let (startOver, account) = (startOver, account)
            signOuts = pubSub.subscribe(to: topic, on: environment.executor) { event in
                guard case .message(let message) = event, message["session"]?.stringValue != marker,
                    account.value != nil
                else { return }
                startOver("signed out in another tab")
            }
        }
    }

    /// Writes the sign-ins and sign-outs down for the visitor, and tells the visitor's
    /// other sessions of a sign-out.
    private var remembering: AnyCancellable?
    /// Writes the language choices down for the visitor.
    private var choosing: AnyCancellable?
    /// The visitor's sign-outs in other sessions.
    private var signOuts: PubSubSubscription?
    /// Names this session in the sign-outs it publishes, so it skips its own.
    private let marker = UUID().uuidString

    /// The not-found page at `path`, in the session's language.
    func notFound(_ path: String) -> NotFoundScene {
        NotFoundScene(
            path: path, texts: language.removeDuplicates().map(\.strings.notFoundPage.viewJSON).eraseToAnyPublisher())
    }

    /// The lot with `id` (nil when there is none), live.
    func lot(_ id: String) -> AnyPublisher<Lot?, Never> {
        AuctionService.lot(id, in: lots)
    }

    /// Starts the account flow as modals over the page; the session is signed in as
    /// soon as the user has an account. `signingIn` starts at the sign-in form;
    /// `finished` is called once the flow's last modal closed, signed in.
    func startAccountFlow(on context: Context, signingIn: Bool, finished: @escaping () -> Void = {}) {
        let account = self.account
        SignupFlow(
            screens: ContextAccountScreens(
                context: context, accounts: accounts, language: language.eraseToAnyPublisher()),
            signedIn: { account.send($0) }, finished: finished
        )
        .start(signingIn: signingIn)
    }
}
