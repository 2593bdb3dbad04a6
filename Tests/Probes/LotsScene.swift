import Footlight
import FootlightJSON

/// The probe list (template "lots"): keyed rows in the slot "rows"; "reverse" turns
/// the list round, "note" ({id, value}) edits one row's note, "open" ({id}) pushes that
/// row's ``LotDetailScene`` at `/lots/<id>`.
public struct LotsScene: Scene {
    /// One row: an id, a title and a note the user may edit.
    public struct Row: ViewValue, Identifiable, Equatable, Sendable {
        public let id: String
        public let title: String
        public var note = ""

        public var viewJSON: JSON { ["id": .string(id), "title": .string(title), "note": .string(note)] }
    }

    /// The rows a list starts with: "lot-1" titled "Lot 1" up to "lot-5".
    public static let sampleRows = (1...5).map { Row(id: "lot-\($0)", title: "Lot \($0)") }

    public init() {}

    public func makeStage(context: Context) -> Stage {
        let stage = Stage(name: "lots")
        let rows = CurrentValueSubject<[Row], Never>(Self.sampleRows)
        let reverse = PassthroughSubject<Void, Never>()
        let note = PassthroughSubject<RowInput, Never>()
        let open = PassthroughSubject<RowInput, Never>()
        stage.bind(rows.rowChanges(), to: "rows")
        stage.on("reverse", send: reverse)
        stage.on("note", send: note)
        stage.on("open", send: open, options: .oneAtATime)
        stage.keep(reverse.sink { rows.value.reverse() })
        stage.keep(
            note.sink { input in
                guard let index = rows.value.firstIndex(where: { $0.id == input.id }) else { return }
                rows.value[index].note = input.value ?? ""
            })
        stage.keep(
            open.sink { input in
                guard let row = rows.value.first(where: { $0.id == input.id }) else { return }
                context.push(LotDetailScene(row: row), url: "/lots/\(row.id)")
            })
        return stage
    }
}

/// The probe detail (template "detail"): the row's title and note; "close" pops it.
public struct LotDetailScene: Scene {
    let row: LotsScene.Row

    public init(row: LotsScene.Row) { self.row = row }

    public func makeStage(context: Context) -> Stage {
        let stage = Stage(name: "detail")
        let close = PassthroughSubject<Void, Never>()
        stage.bind(Just(row.title), to: "title")
        stage.bind(Just(row.note), to: "note")
        stage.on("close", send: close, options: .oneAtATime)
        stage.keep(close.sink { context.pop() })
        return stage
    }
}

/// What a row's event carries: `{"id": "…"}`, with a string `"value"` for an edit.
public struct RowInput: EventValue, Equatable {
    public let id: String
    public let value: String?

    public init(eventJSON: JSON) throws(EventValueError) {
        let expected = "an object with a string \"id\" (and a string \"value\" if any)"
        guard case .string(let id)? = eventJSON["id"] else {
            throw EventValueError(expected: expected, received: eventJSON)
        }
        switch eventJSON["value"] {
        case nil: value = nil
        case .string(let text)?: value = text
        default: throw EventValueError(expected: expected, received: eventJSON)
        }
        self.id = id
    }
}
