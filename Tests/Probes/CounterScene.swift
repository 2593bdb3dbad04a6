import Footlight

/// The probe counter (template "counter"): "increment" adds one to the slot "count",
/// shown as "Count: N"; "about" presents ``AboutScene`` as a modal.
public struct CounterScene: Scene {
    /// The template the counter mounts.
    public static let stageName = "counter"

    /// The counter with no navigation: a stage for tests that mount stages directly.
    public static func makeStage() -> Stage {
        let stage = Stage(name: stageName)
        let clicks = PassthroughSubject<Void, Never>()
        let total = clicks.scan(0) { count, _ in count + 1 }.prepend(0)
        stage.bind(total.map { "Count: \($0)" }, to: "count")
        stage.on("increment", send: clicks)
        return stage
    }

    public init() {}

    public func makeStage(context: Context) -> Stage {
        let stage = Self.makeStage()
        let about = PassthroughSubject<Void, Never>()
        stage.on("about", send: about, options: .oneAtATime)
        stage.keep(about.sink { context.present(AboutScene()) })
        return stage
    }
}

/// The probe modal (template "about"): "docs" opens ``documentationURL``, "dismiss"
/// closes the modal.
public struct AboutScene: Scene {
    /// The address "docs" asks the page to open.
    public static let documentationURL = "https://probes.example/docs"

    public init() {}

    public func makeStage(context: Context) -> Stage {
        let stage = Stage(name: "about")
        let docs = PassthroughSubject<Void, Never>()
        let dismiss = PassthroughSubject<Void, Never>()
        stage.bind(Just("A probe modal."), to: "text")
        stage.on("docs", send: docs, options: .oneAtATime)
        stage.on("dismiss", send: dismiss, options: .oneAtATime)
        stage.keep(docs.sink { context.open(url: Self.documentationURL) })
        stage.keep(dismiss.sink { context.dismiss() })
        return stage
    }
}
