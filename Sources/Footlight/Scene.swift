/// A screen of an app: it makes its Director, binds it to a stage, and observes the
/// Director's scene outputs to present other scenes through the context. A scene holds
/// no logic of its own and is created with the data it needs (a lot id, say).
///
/// ```swift
/// struct CounterScene: Scene {
///     func makeStage(context: Context) -> Stage {
///         let increment = PassthroughSubject<Void, Never>()
///         let director = CounterDirector(increment: increment.eraseToAnyPublisher())
///         let stage = Stage(name: "counter")
///         stage.bind(director.countText, to: "count")
///         stage.on("increment", send: increment)
///         return stage
///     }
/// }
/// ```
public protocol Scene {
    /// Makes the stage (its template name is the stage's name) with every binding in
    /// place; subscriptions to scene outputs are kept with ``Stage/keep(_:)``.
    func makeStage(context: Context) -> Stage
}

/// Where a stage is shown.
public enum Placement: String, Sendable, Equatable {
    /// At the root of the page (several root stages may be shown side by side).
    case root
    /// On the navigation stack, over the roots; the browser's back button pops it.
    case push
    /// In a modal over everything else.
    case modal
}
