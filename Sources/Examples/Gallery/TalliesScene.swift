import Footlight
import FootlightJSON

/// A list of components: one ``TallyScene`` per row, each with its own count. The
/// list's own buttons add a row, remove the first, and reverse the order; a moved row
/// keeps its tally and what it counted. Shown at `/tallies`.
public struct TalliesScene: Scene {
    /// A row: its id and the label its tally shows.
    public struct Row: ViewValue, Identifiable, Equatable, Sendable {
        public let id: String
        public let label: String
        public var viewJSON: JSON { ["id": .string(id), "label": .string(label)] }
    }

    /// The rows a new list starts with.
    public static let firstRows = ["Apples", "Pears", "Plums"].enumerated().map {
        Row(id: "tally-\($0.offset + 1)", label: $0.element)
    }

    public init() {}

    public func makeStage(context: Context) -> Stage {
        let stage = Stage(name: "tallies")
        let rows = CurrentValueSubject<[Row], Never>(Self.firstRows)
        var added = Self.firstRows.count
        let add = PassthroughSubject<Void, Never>()
        let removeFirst = PassthroughSubject<Void, Never>()
        let reverse = PassthroughSubject<Void, Never>()
        let close = PassthroughSubject<Void, Never>()
        stage.keep(
            add.sink {
                added += 1
                rows.value.append(Row(id: "tally-\(added)", label: "Tally \(added)"))
            })
        stage.keep(removeFirst.sink { if !rows.value.isEmpty { rows.value.removeFirst() } })
        stage.keep(reverse.sink { rows.value.reverse() })
        stage.keep(close.sink { context.pop() })
        stage.bind(rows.rowChanges(), to: "items", component: "tally") { row in
            TallyScene(label: row.map(\.label).eraseToAnyPublisher()).makeStage(context: context)
        }
        stage.on("add", send: add)
        stage.on("removeFirst", send: removeFirst)
        stage.on("reverse", send: reverse)
        stage.on("close", send: close)
        return stage
    }
}

/// One tally, a component: a label from its row, a count its button adds to, and a
/// name typed for it.
public struct TallyScene: Scene {
    let label: AnyPublisher<String, Never>

    public init(label: AnyPublisher<String, Never>) {
        self.label = label
    }

    public func makeStage(context: Context) -> Stage {
        let add = PassthroughSubject<Void, Never>()
        let name = CurrentValueSubject<String, Never>("")
        let stage = Stage(name: "tally")
        stage.bind(label, to: "label")
        stage.bind(add.scan(0) { count, _ in count + 1 }.prepend(0), to: "count")
        stage.bind(name, to: "name")
        stage.on("add", send: add)
        stage.on("name", send: name, options: .debounce(.milliseconds(200)))
        return stage
    }
}
