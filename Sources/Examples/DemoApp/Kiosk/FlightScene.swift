import Footlight

/// "Your trip to the auction": the inert flight card. No Director: the view model is
/// made once and shown as it is.
public struct FlightScene: Scene {
    let flight: Flight?

    /// The card of `flight` (nil: the system lacks the time zone data to show it).
    public init(flight: Flight? = .tripToTheAuction) {
        self.flight = flight
    }

    public func makeStage(context: Context) -> Stage {
        let back = PassthroughSubject<Void, Never>()
        let stage = Stage(name: "flight")
        stage.bind(Just(flight.map(FlightCard.init(flight:))), to: "card")
        stage.on("back", send: back, options: .oneAtATime)
        stage.keep(back.sink { context.pop() })
        return stage
    }
}
