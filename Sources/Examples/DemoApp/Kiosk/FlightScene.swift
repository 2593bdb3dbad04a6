import Footlight

/// "Your trip to the auction": the inert flight card. No Director: the view model is
/// made once per language and shown as it is.
public struct FlightScene: Scene {
    let flight: Flight?
    let language: AnyPublisher<KioskLanguage, Never>

    /// The card of `flight` (nil: the system lacks the time zone data to show it), in
    /// the session's `language`.
    public init(
        flight: Flight? = .tripToTheAuction,
        language: AnyPublisher<KioskLanguage, Never> = Just(.fallback).eraseToAnyPublisher()
    ) {
        self.flight = flight
        self.language = language
    }

    public func makeStage(context: Context) -> Stage {
        let back = PassthroughSubject<Void, Never>()
        let stage = Stage(name: "flight")
        let flight = self.flight
        stage.bindTexts(\.flightPage, language: language)
        stage.bindSiteTexts(language: language)
        stage.bind(
            language.removeDuplicates().map { language in flight.map { FlightCard(flight: $0, language: language) } },
            to: "card")
        stage.on("back", send: back, options: .oneAtATime)
        stage.keep(back.sink { context.pop() })
        return stage
    }
}
