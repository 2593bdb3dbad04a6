import Footlight

/// One lot's details and its bid form: the live lot display-ready, the amount checked
/// as the user types, a submit that runs once at a time, and the outcome as a message.
/// A user who is not signed in is sent to sign in (a scene output) instead.
public final class LotDetailsDirector {
    /// The lot display-ready, or nil when no lot has the id.
    public let details: AnyPublisher<LotDetails?, Never>
    /// The amount field's text: what the user typed, emptied after an accepted bid.
    public let amount: AnyPublisher<String, Never>
    /// Why the amount cannot be bid, or nil (also while the field is empty).
    public let amountError: AnyPublisher<String?, Never>
    /// Whether the submit button is enabled: the lot is open, no bid is in progress,
    /// and either the amount can be bid or the user is signed out (the button then
    /// leads to signing in).
    public let canSubmit: AnyPublisher<Bool, Never>
    /// Whether a bid is in progress.
    public let submitting: AnyPublisher<Bool, Never>
    /// The submit button's label: "Place bid", "Placing bid…", or "Sign in to bid".
    public let submitTitle: AnyPublisher<String, Never>
    /// The last bid's outcome, following the lot (an accepted bid that another bid has
    /// since passed says so); cleared when the user edits the amount.
    public let message: AnyPublisher<BidMessage?, Never>
    /// Scene output: the user submitted while signed out, on an open lot.
    public let needsSignIn: AnyPublisher<Void, Never>
    /// The lot's bids so far, for its chart.
    public let bidHistory: AnyPublisher<BidHistory, Never>
    /// The amount of each bid of the user's that was accepted, in cents, as it is: the
    /// chart marks them (they are not in the lot's state, which names only the highest).
    public let acceptedBids: AnyPublisher<Int, Never>

    /// The last bid as the user made it, before the lot's later state is applied.
    private enum Outcome {
        case none
        case accepted(Bid)
        case refused(any Error)
    }

    /// What the form holds at a moment: the amount checked against the lot.
    private struct Draft: Equatable {
        /// The lot's id while it is open for bids, else nil.
        var openLotID: String?
        /// The amount, when it can be bid.
        var cents: Int?
        var problem: String?
    }

    /// - Parameters:
    ///   - lot: the lot, live (``AuctionService/lotPublisher(id:on:)``); nil when none
    ///     has the id.
    ///   - now: the auction clock's time, ticking (``ClockTicks``).
    ///   - account: the signed-in account's id, nil when signed out.
    ///   - amount: the amount field's text, as typed.
    ///   - submit: the submit button.
    ///   - bidding: places the bids (``SessionBidding`` on the live service).
    ///   - pastBids: the amounts of a lot's bids this round, oldest first, in cents
    ///     (``AuctionService/bids(onLot:)``): read when the lot opens, and when bids came
    ///     faster than the lot's changes.
    ///   - language: the session's language: texts, money and what an amount may look like.
    ///   - formatter: makes the details, shared with the other sessions showing the lot
    ///     (``KioskServices/rowFormatter``); none given, the Director makes its own.
    public init(
        lot lotInput: AnyPublisher<Lot?, Never>, now nowInput: AnyPublisher<Duration, Never>,
        account accountInput: AnyPublisher<String?, Never>, amount amountInput: AnyPublisher<String, Never>,
        submit: AnyPublisher<Void, Never>, bidding: any BidPlacing,
        pastBids: @escaping (String) -> [Int] = { _ in [] },
        language languageInput: AnyPublisher<KioskLanguage, Never> = Just(.fallback).eraseToAnyPublisher(),
        formatter: LotRowFormatter = LotRowFormatter()
    ) {
        let lot = lotInput.shareLatest()
        let now = nowInput.shareLatest()
        let language = languageInput.removeDuplicates().shareLatest()
        let clock = now.combineLatest(language).shareLatest()
        let account = accountInput.removeDuplicates().shareLatest()
        // An accepted bid empties the field; the action's job sends here (no
        // subscription to keep: the action holds the job).
        let resets = PassthroughSubject<String, Never>()
        let amount = amountInput.merge(with: resets).prepend("").shareLatest()
        self.amount = amount
        let draft = amount.combineLatest(lot, clock) { Self.check($0, lot: $1, now: $2.0, language: $2.1) }
            .removeDuplicates()
            .shareLatest()
        let form = draft.combineLatest(account).shareLatest()
        amountError = draft.map(\.problem).removeDuplicates().eraseToAnyPublisher()

        let requests = submit.withLatestFrom(form) { _, form -> BidRequest? in
            let (draft, account) = form
            guard let lotID = draft.openLotID, let cents = draft.cents, let account else { return nil }
            return BidRequest(lotID: lotID, amountCents: cents, bidder: account)
        }
        let action = Action<BidRequest, Bid>(trigger: requests.compactMap { $0 }) { request in
            bidding.placeBid(request)
                .handleEvents(receiveOutput: { _ in resets.send("") })
                .eraseToAnyPublisher()
        }
        needsSignIn = submit.withLatestFrom(form) { _, form in form.0.openLotID != nil && form.1 == nil }
            .filter { $0 }
            .map { _ in () }
            .eraseToAnyPublisher()

        submitting = action.isExecuting
        acceptedBids = action.values.map(\.amountCents).eraseToAnyPublisher()
        bidHistory = lot.scan(BidHistory.empty) { history, lot in history.following(lot, pastBids: pastBids) }
            .combineLatest(language) { history, language in history.speaking(language) }
            .removeDuplicates()
            .eraseToAnyPublisher()
        canSubmit = form.combineLatest(action.isExecuting) { form, executing in
            let (draft, account) = form
            return draft.openLotID != nil && !executing && (account == nil || draft.cents != nil)
        }
        .removeDuplicates()
        .eraseToAnyPublisher()
        submitTitle = account.combineLatest(action.isExecuting, language) { account, executing, language in
            let strings = language.strings
            return account == nil ? strings.signInToBid : executing ? strings.placingBid : strings.placeBid
        }
        .removeDuplicates()
        .eraseToAnyPublisher()
        let outcome = action.values.map { Outcome.accepted($0) }
            .merge(with: action.errors.map { Outcome.refused($0) })
            .merge(with: amountInput.map { _ in Outcome.none })
            .prepend(.none)
        message = outcome.combineLatest(lot, language) { outcome, lot, language -> BidMessage? in
            switch outcome {
            case .none: nil
            case .refused(let error): BidMessage.refused(error, in: language)
            case .accepted(let bid):
                if let lot, lot.id == bid.lotID, lot.currentBidCents > bid.amountCents {
                    BidMessage.outbid(bid, highestCents: lot.currentBidCents, in: language)
                } else {
                    BidMessage.accepted(bid, in: language)
                }
            }
        }
        .removeDuplicates()
        .eraseToAnyPublisher()
        details = lot.combineLatest(clock, account) { lot, clock, account in
            lot.map { formatter.details(of: $0, at: clock.0, account: account, in: clock.1) }
        }
        .removeDuplicates()
        .eraseToAnyPublisher()
    }

    /// Checks `text` as a bid on `lot` at `now`: an amount of money, as `language` writes
    /// it, at least the lot's minimum next bid. An empty field has no problem yet; a
    /// closed or missing lot takes no bid and reports nothing (the details say why).
    private static func check(_ text: String, lot: Lot?, now: Duration, language: KioskLanguage) -> Draft {
        guard let lot, lot.isOpen(at: now) else { return Draft() }
        guard text.contains(where: { !$0.isWhitespace }) else { return Draft(openLotID: lot.id) }
        let cents: Int
        do {
            cents = try MoneyFormat.parse(text, in: language)
        } catch {
            return Draft(openLotID: lot.id, problem: error.message(in: language))
        }
        guard cents >= lot.minimumNextBidCents else {
            let minimum = MoneyFormat.string(cents: lot.minimumNextBidCents, in: language)
            return Draft(openLotID: lot.id, problem: language.strings.bidAtLeast(minimum))
        }
        return Draft(openLotID: lot.id, cents: cents)
    }
}
