import Footlight
import FootlightJSON

/// A keyed list the user can reorder and annotate; selecting a row is a scene output.
public final class LotsDirector {
    /// One row of the list, display-ready.
    public struct Row: ViewValue, Identifiable, Equatable, Sendable {
        public let id: String
        public let title: String
        public var note: String

        public var viewJSON: JSON { ["id": .string(id), "title": .string(title), "note": .string(note)] }
    }

    public let rows: AnyPublisher<[Row], Never>
    /// The same list, as row changes for a keyed slot: an edit is one update, a reorder
    /// the fewest moves (the first value resets the list).
    public let rowChanges: AnyPublisher<[RowChange<Row>], Never>
    /// The row the user opened (scene output).
    public let selected: AnyPublisher<Row, Never>

    public init(
        reverse: AnyPublisher<Void, Never>, shuffle: AnyPublisher<Void, Never>,
        edit: AnyPublisher<RowInput<String>, Never>,
        open: AnyPublisher<RowEvent, Never>, initial: [Row] = LotsDirector.sampleRows
    ) {
        enum Change {
            case reverse, shuffle
            case edit(RowInput<String>)
        }
        let changes = reverse.map { Change.reverse }
            .merge(with: shuffle.map { Change.shuffle })
            .merge(with: edit.map { Change.edit($0) })
        let steps = changes.scan((rows: initial, changes: [RowChange<Row>]())) { state, change in
            var rows = state.rows
            switch change {
            case .reverse: rows.reverse()
            case .shuffle: rows.shuffle()
            case .edit(let edit):
                guard let index = rows.firstIndex(where: { $0.id == edit.id }) else { return (rows, []) }
                rows[index].note = edit.value
                return (rows, [.update(rows[index])])
            }
            return (rows, RowChange.changes(from: state.rows, to: rows))
        }
        .prepend((initial, [.reset(initial)]))
        .shareLatest()
        rows = steps.map(\.rows).removeDuplicates().eraseToAnyPublisher()
        // A subscriber first gets the latest step replayed: for it, that is the whole list.
        rowChanges = steps.scan((first: true, changes: [RowChange<Row>]())) { state, step in
            (false, state.first ? [.reset(step.rows)] : step.changes)
        }
        .map(\.changes)
        .filter { !$0.isEmpty }
        .eraseToAnyPublisher()
        selected = open.withLatestFrom(rows) { reference, rows in rows.first { $0.id == reference.id } }
            .compactMap { $0 }
            .eraseToAnyPublisher()
    }

    public static let sampleRows: [Row] = [
        Row(id: "lot-1", title: "Harbour at dusk", note: ""), Row(id: "lot-2", title: "Blue study", note: ""),
        Row(id: "lot-3", title: "Portrait of a clockmaker", note: ""),
        Row(id: "lot-4", title: "Still life with pears", note: ""),
        Row(id: "lot-5", title: "Mountain pass", note: ""),
    ]
}

/// The list stage; opening a row pushes its detail.
public struct LotsScene: Scene {
    public init() {}

    public func makeStage(context: Context) -> Stage {
        let reverse = PassthroughSubject<Void, Never>()
        let shuffle = PassthroughSubject<Void, Never>()
        let edit = PassthroughSubject<RowInput<String>, Never>()
        let open = PassthroughSubject<RowEvent, Never>()
        let director = LotsDirector(
            reverse: reverse.eraseToAnyPublisher(), shuffle: shuffle.eraseToAnyPublisher(),
            edit: edit.eraseToAnyPublisher(), open: open.eraseToAnyPublisher())
        let stage = Stage(name: "lots")
        stage.bind(director.rowChanges, to: "rows")
        stage.on("reverse", send: reverse)
        stage.on("shuffle", send: shuffle)
        stage.on("note", send: edit)
        stage.on("open", send: open, options: .oneAtATime)
        stage.keep(director.selected.sink { row in context.push(DetailScene(row: row), url: "/lots/\(row.id)") })
        return stage
    }
}

/// One lot's detail, pushed over the list; "close" or the back button pops it.
public struct DetailScene: Scene {
    let row: LotsDirector.Row

    public init(row: LotsDirector.Row) { self.row = row }

    public func makeStage(context: Context) -> Stage {
        let close = PassthroughSubject<Void, Never>()
        let stage = Stage(name: "detail")
        stage.bind(Just(row.title), to: "title")
        stage.bind(Just(row.note.isEmpty ? "No note yet." : row.note), to: "note")
        stage.keep(close.sink { context.pop() })
        stage.on("close", send: close, options: .oneAtATime)
        return stage
    }
}
