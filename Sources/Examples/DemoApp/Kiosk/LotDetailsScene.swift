import Footlight
import FootlightJSON

/// One lot, live, with its bid form. Bidding signed out presents the account flow
/// modally; the form is still here, amount and all, when it ends.
public struct LotDetailsScene: Scene {
    let session: KioskSession
    let lotID: String

    public init(session: KioskSession, lotID: String) {
        self.session = session
        self.lotID = lotID
    }

    public func makeStage(context: Context) -> Stage {
        let amount = PassthroughSubject<String, Never>()
        let submit = PassthroughSubject<Void, Never>()
        let back = PassthroughSubject<Void, Never>()
        let services = session.services
        let language = session.language.removeDuplicates().eraseToAnyPublisher()
        let director = LotDetailsDirector(
            lot: session.lot(lotID), now: session.now,
            account: session.account.map { $0?.email }.eraseToAnyPublisher(), amount: amount.eraseToAnyPublisher(),
            submit: submit.eraseToAnyPublisher(),
            bidding: SessionBidding(
                service: services.auction, clock: context.environment.clock, latency: services.latency),
            pastBids: { services.auction.bids(onLot: $0).map(\.amountCents) },
            language: language, formatter: services.rowFormatter)
        let stage = Stage(name: "lot")
        stage.bindTexts(\.lotPage, language: language)
        stage.bindSiteTexts(language: language)
        stage.bind(director.details, to: "lot")
        stage.bind(director.amount, to: "amount")
        stage.bind(director.amountError, to: "amountError")
        stage.bind(director.canSubmit, to: "canSubmit")
        stage.bind(director.submitting, to: "submitting")
        stage.bind(director.submitTitle, to: "submitTitle")
        stage.bind(director.message, to: "message")
        // The chart of the bids so far is drawn by the page's "bid-chart" hook, which marks
        // the user's own bids as they are accepted.
        stage.bind(director.bidHistory, to: "history")
        stage.push(director.acceptedBids.map { cents -> JSON in ["mine": .int(Int64(cents))] }, to: "bid-chart")
        stage.on("amount", send: amount, options: EventOptions(debounce: .milliseconds(250), recoverable: true))
        // Place bid: the field takes focus at once, in the page, before the button is disabled
        // while the bid is on its way (focus would fall to the whole page); the outcome is
        // announced by the message (role status).
        stage.on("submit", send: submit, options: EventOptions(oneAtATime: true, commands: [.focus("#bid-amount")]))
        stage.on("back", send: back, options: .oneAtATime)
        // The page's title names the lot (the page's own comes back when the lot closes),
        // and the bid field takes focus when the lot opens.
        stage.run(
            director.details.compactMap { $0?.title }.removeDuplicates()
                .combineLatest(language) { [ClientCommand.setTitle($1.strings.lotPageTitle($0))] })
        // After the account flow a bid started, the field takes focus again.
        let focusField = PassthroughSubject<[ClientCommand], Never>()
        stage.run(Just([ClientCommand.focus("#bid-amount")]).merge(with: focusField))
        let session = self.session
        stage.keep(
            director.needsSignIn.sink {
                session.startAccountFlow(on: context, signingIn: false) {
                    focusField.send([ClientCommand.focus("#bid-amount")])
                }
            })
        stage.keep(back.sink { context.pop() })
        return stage
    }
}
