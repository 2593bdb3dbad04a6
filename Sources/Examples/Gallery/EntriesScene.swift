import Footlight
import FootlightJSON

/// Quick entries, the input races of a to-do list: a field whose submit (Enter) adds
/// an entry and empties the field in the page at once (``EventOptions/sets``), its text
/// kept for a rebuild (recoverable), and a password-like field whose text the server
/// echoes but never keeps. Shown at `/entries`.
public struct EntriesScene: Scene {
    /// An added entry: its id and title.
    public struct Entry: ViewValue, Identifiable, Equatable, Sendable {
        public let id: String
        public let title: String
        public var viewJSON: JSON { ["id": .string(id), "title": .string(title)] }
    }

    public init() {}

    public func makeStage(context: Context) -> Stage {
        let stage = Stage(name: "entries")
        let entries = CurrentValueSubject<[Entry], Never>([])
        let draft = CurrentValueSubject<String, Never>("")
        let secret = CurrentValueSubject<String, Never>("")
        let add = PassthroughSubject<JSON, Never>()
        let close = PassthroughSubject<Void, Never>()
        stage.keep(
            add.sink { form in
                guard let title = form["title"]?.stringValue, !title.isEmpty else { return }
                entries.value.append(Entry(id: "entry-\(entries.value.count + 1)", title: title))
                draft.value = ""
            })
        stage.keep(close.sink { context.pop() })
        stage.bind(entries, to: "entries")
        stage.bind(draft, to: "draft")
        stage.bind(secret, to: "secret")
        stage.on("draft", send: draft, options: .recoverable)
        stage.on("secret", send: secret)
        stage.on("add", send: add, options: EventOptions(sets: ["draft": ""]))
        stage.on("close", send: close)
        return stage
    }
}
