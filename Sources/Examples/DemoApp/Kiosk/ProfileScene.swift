import Footlight

/// The signed-in user's profile: the website opens in a new tab (through the
/// context), "your trip" pushes the flight card, signing out returns to the listings,
/// and a picture chosen goes up with a progress bar and shows once kept.
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
        let upload = PassthroughSubject<UploadEvent, Never>()
        let (avatars, logger) = (session.services.avatars, session.services.logger)
        let director = ProfileDirector(
            account: session.account.eraseToAnyPublisher(), openWebsite: openWebsite.eraseToAnyPublisher(),
            trip: trip.eraseToAnyPublisher(), signOut: signOut.eraseToAnyPublisher(),
            language: session.language.eraseToAnyPublisher(), pictureUpload: upload.eraseToAnyPublisher(),
            pictureOf: { avatars.picture(of: $0) },
            keepPicture: { file, email in
                do {
                    return try avatars.keep(file, for: email)
                } catch {
                    logger.error("a profile picture was not kept: \(error)")
                    return nil
                }
            })
        let stage = Stage(name: "profile")
        stage.bindTexts(\.profilePage, language: session.language.eraseToAnyPublisher())
        stage.bindSiteTexts(language: session.language.eraseToAnyPublisher())
        stage.bind(director.name, to: "name")
        stage.bind(director.email, to: "email")
        stage.bind(director.website, to: "website")
        stage.bind(director.picture, to: "picture")
        stage.bind(director.pictureProgress, to: "pictureProgress")
        stage.bind(director.pictureProgress.map { $0 != nil }, to: "uploading")
        stage.bind(director.pictureProblem, to: "pictureProblem")
        stage.upload("picture", limits: PictureStep.limits, send: upload)
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
