import Footlight

/// The counter stage: a button that sends "increment" and a slot "count".
public enum CounterScene {
    /// The stage's name, which is the template's name in the page.
    public static let stageName = "counter"

    /// Makes the director and binds it to a new stage.
    public static func makeStage() -> Stage {
        let increment = PassthroughSubject<Void, Never>()
        let director = CounterDirector(increment: increment.eraseToAnyPublisher())
        let stage = Stage(name: stageName)
        stage.bind(director.countText, to: "count")
        stage.on("increment", send: increment)
        return stage
    }
}
