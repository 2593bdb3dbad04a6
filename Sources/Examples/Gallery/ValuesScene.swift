import Footlight
import FootlightJSON

/// Typed event values and comparisons: three filter buttons, the current one marked by
/// `data-class="selected:filter=='…'"`, and a list whose rows carry a JavaScript hook;
/// the hook's send from a row arrives as a ``RowEvent`` naming it. Shown at `/values`.
public struct ValuesScene: Scene {
    /// A row: its id and title.
    public struct Row: ViewValue, Identifiable, Equatable, Sendable {
        public let id: String
        public let title: String
        public var viewJSON: JSON { ["id": .string(id), "title": .string(title)] }
    }

    /// The rows shown.
    public static let rows = ["Apples", "Pears", "Plums"].enumerated().map {
        Row(id: "row-\($0.offset + 1)", title: $0.element)
    }

    public init() {}

    public func makeStage(context: Context) -> Stage {
        let stage = Stage(name: "values")
        let filter = CurrentValueSubject<String, Never>("all")
        let picked = PassthroughSubject<RowEvent, Never>()
        let close = PassthroughSubject<Void, Never>()
        for name in ["all", "active", "done"] {
            let choose = PassthroughSubject<Void, Never>()
            stage.on(name, send: choose)
            stage.keep(choose.sink { filter.send(name) })
        }
        stage.on("picked", send: picked)
        stage.on("close", send: close)
        stage.keep(close.sink { context.pop() })
        stage.bind(filter, to: "filter")
        stage.bind(Just(Self.rows), to: "rows")
        stage.bind(picked.map { "Picked \($0.id)" }.prepend(""), to: "picked")
        return stage
    }
}
