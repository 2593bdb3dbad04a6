import Footlight

/// The signed-in user's profile: the website opens in a new tab (through the
/// context), "your trip" pushes the flight card, signing out returns to the listings.
public struct ProfileScene: Scene {
    let session: KioskSession

    public init(session: KioskSession) {
        self.session = session
    }

    public func makeStage(context: Context) -> Stage {
        let openWebsite = PassthroughSubject<Void, Never>()
        let trip = PassthroughSubject<Void, Never>()
        let signOut = PassthroughSubject<Void, Never>()
        let back = PassthroughSubject<Void, Never>()
        let director = ProfileDirector(
            account: session.account.eraseToAnyPublisher(), openWebsite: openWebsite.eraseToAnyPublisher(),
            trip: trip.eraseToAnyPublisher(), signOut: signOut.eraseToAnyPublisher(),
            language: session.language.eraseToAnyPublisher())
        let stage = Stage(name: "profile")
        stage.bindTexts(\.profilePage, language: session.language.eraseToAnyPublisher())
        stage.bind(director.name, to: "name")
        stage.bind(director.email, to: "email")
        stage.bind(director.website, to: "website")
        stage.on("website", send: openWebsite, options: .oneAtATime)
        stage.on("trip", send: trip, options: .oneAtATime)
        stage.on("signOut", send: signOut, options: .oneAtATime)
        stage.on("back", send: back, options: .oneAtATime)
        let (account, language) = (session.account, session.language)
        stage.keep(director.openURL.sink { context.open(url: $0) })
        stage.keep(
            director.showTrip.sink {
                context.push(FlightScene(language: language.eraseToAnyPublisher()), url: "/profile/trip")
            })
        stage.keep(
            director.signedOut.sink {
                account.send(nil)
                context.pop()
            })
        stage.keep(back.sink { context.pop() })
        return stage
    }
}
