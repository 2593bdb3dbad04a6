import Footlight

/// The counter stage: a button that sends "increment" and a slot "count"; a second
/// button presents the About modal.
public struct CounterScene: Scene {
    /// The stage's name, which is the template's name in the page.
    public static let stageName = "counter"

    public init() {}

    public func makeStage(context: Context) -> Stage {
        let stage = Self.makeStage()
        let about = PassthroughSubject<Void, Never>()
        stage.keep(about.sink { context.present(AboutScene()) })
        stage.on("about", send: about, options: .oneAtATime)
        return stage
    }

    /// The counter alone, without navigation (for tests that need only a stage).
    public static func makeStage() -> Stage {
        let increment = PassthroughSubject<Void, Never>()
        let director = CounterDirector(increment: increment.eraseToAnyPublisher())
        let stage = Stage(name: stageName)
        stage.bind(director.countText, to: "count")
        stage.on("increment", send: increment)
        return stage
    }
}
