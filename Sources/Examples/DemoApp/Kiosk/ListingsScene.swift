import Footlight

/// The live listings: the order control, the lots as a grid or a table (a
/// ``LotCardScene`` component per lot), the account bar and the language switch.
/// Opening a lot pushes its details.
public struct ListingsScene: Scene {
    let session: KioskSession

    public init(session: KioskSession) {
        self.session = session
    }

    public func makeStage(context: Context) -> Stage {
        let order = PassthroughSubject<Picked, Never>()
        let open = PassthroughSubject<Picked, Never>()
        let profile = PassthroughSubject<Void, Never>()
        let signIn = PassthroughSubject<Void, Never>()
        let choose = PassthroughSubject<Picked, Never>()
        let language = session.language.removeDuplicates().eraseToAnyPublisher()
        let director = ListingsDirector(
            lots: session.lots, now: session.now,
            segment: order.map(\.id).eraseToAnyPublisher(), open: open.map(\.id).eraseToAnyPublisher(),
            language: language, formatter: session.services.rowFormatter)
        let stage = Stage(name: "listings")
        stage.bindTexts(\.listingsPage, language: language)
        stage.bindSiteTexts(language: language)
        stage.bind(language.map(LanguageChoice.all(selected:)), to: "languages")
        // The page's title follows the language (a lot page names its lot; back here, the site).
        stage.run(language.map { [ClientCommand.setTitle($0.strings.siteName)] })
        stage.bind(director.segments, to: "segments")
        stage.bind(director.layout, to: "layout")
        stage.bind(director.rowChanges, to: "rows", component: "card") { row in
            LotCardScene(row: row).makeStage(context: context)
        }
        stage.bind(session.account.map { $0?.name }.removeDuplicates(), to: "accountName")
        stage.on("order", send: order, options: .recoverable)
        // A tap on a lot's card bubbles to its row; one at a time: a double click opens one page.
        stage.on("open", send: open, options: .oneAtATime)
        stage.on("profile", send: profile, options: .oneAtATime)
        stage.on("signIn", send: signIn, options: .oneAtATime)
        stage.on("language", send: choose, options: .recoverable)
        let session = self.session
        // Signed in here: focus goes to the profile's button, which took the place of "Sign in"
        // (hidden now, so the dialog could not give focus back to it).
        let signedInHere = PassthroughSubject<[ClientCommand], Never>()
        stage.run(signedInHere)
        let focusProfile = { signedInHere.send([ClientCommand.focus(".account-name")]) }
        stage.keep(
            director.selectedLot.sink { id in
                context.push(LotDetailsScene(session: session, lotID: id), url: "/lots/\(id)")
            })
        stage.keep(
            profile.sink {
                if session.account.value == nil {
                    session.startAccountFlow(on: context, signingIn: true, finished: focusProfile)
                } else {
                    context.push(ProfileScene(session: session), url: "/profile")
                }
            })
        stage.keep(signIn.sink { session.startAccountFlow(on: context, signingIn: true, finished: focusProfile) })
        // An id the kiosk does not speak is ignored: the switch offers only those it does.
        stage.keep(choose.compactMap { KioskLanguage(tag: $0.id) }.sink { session.language.send($0) })
        return stage
    }
}
