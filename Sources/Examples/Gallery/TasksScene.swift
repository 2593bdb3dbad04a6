import Footlight

/// A task list whose filter is its address: the links All, Active and Completed go to
/// `/tasks`, `/tasks/active` and `/tasks/completed` in the same stage (a new History
/// entry each, no new stage), Back and Forward come back as its address input, and an
/// unknown filter shows all, at `/tasks` (replacing the entry). Each task opens a
/// ``NoteScene`` at `/notes/<n>`, which opens the next: a deep stack.
public struct TasksScene: Scene {
    /// What the list shows; its raw value is the path's last part ("" for all).
    public enum Filter: String, CaseIterable, Sendable {
        case all = ""
        case active, completed

        /// The filter's address.
        public var address: Address { Address(self == .all ? "/tasks" : "/tasks/\(rawValue)") }
    }

    /// The sample tasks: title and whether it is done.
    public static let tasks = [("Write the docs", false), ("Plan the launch", true), ("Test the filters", false)]

    private let path: String

    /// The list at `path` (`/tasks`, `/tasks/active`, `/tasks/completed`).
    public init(path: String) {
        self.path = path
    }

    /// Pushes what `path` names, if it is the list's or a note's: the app's routing.
    public static func route(_ path: String, in context: Context) {
        let parts = path.split(separator: "?").first?.split(separator: "/") ?? []
        if parts.first == "tasks" {
            context.push(TasksScene(path: path), url: path)
        } else if parts.count == 2, parts[0] == "notes", let number = Int(parts[1]), (1...9).contains(number) {
            context.push(NoteScene(number: number), url: "/notes/\(number)")
        }
    }

    public func makeStage(context: Context) -> Stage {
        let stage = Stage(name: "tasks")
        var corrected = false
        let filter = CurrentValueSubject<Filter, Never>(.all)
        let went = PassthroughSubject<Address, Never>()
        let go = { (address: Address) in
            let parts = address.path.split(separator: "/")
            let chosen = parts.count == 2 ? Filter(rawValue: String(parts[1])) : parts.count == 1 ? .all : nil
            corrected = chosen == nil
            filter.send(chosen ?? .all)
        }
        go(Address(path))
        stage.keep(went.sink(receiveValue: go))
        stage.onAddress(send: went)
        stage.bindAddress(filter.map { Address($0.address.url, replaces: corrected) })
        stage.bind(filter.map { $0 == .all ? "all" : $0.rawValue }, to: "filter")
        stage.bind(
            filter.map { filter in
                Self.tasks.filter { filter == .all || $0.1 == (filter == .completed) }.map(\.0).joined(separator: ", ")
            }, to: "shown")
        for choice in Filter.allCases {
            let chose = PassthroughSubject<Void, Never>()
            stage.keep(
                chose.sink {
                    corrected = false
                    filter.send(choice)
                })
            stage.on(choice == .all ? "all" : choice.rawValue, send: chose)
        }
        let open = PassthroughSubject<Void, Never>()
        stage.keep(open.sink { context.push(NoteScene(number: 1), url: "/notes/1") })
        stage.on("open", send: open, options: .oneAtATime)
        return stage
    }
}

/// Note `number`, at `/notes/<number>`: a text kept across a restart (recoverable),
/// and a link to the next note, pushed over it.
public struct NoteScene: Scene {
    let number: Int

    public func makeStage(context: Context) -> Stage {
        let stage = Stage(name: "note")
        let text = CurrentValueSubject<String, Never>("")
        let next = PassthroughSubject<Void, Never>()
        stage.bind(Just("Note \(number)"), to: "title")
        stage.bind(text, to: "text")
        stage.on("text", send: text, options: EventOptions(debounce: .milliseconds(100), recoverable: true))
        stage.keep(
            next.sink { [number] in
                context.push(NoteScene(number: number + 1), url: "/notes/\(number + 1)")
            })
        stage.on("next", send: next, options: .oneAtATime)
        return stage
    }
}
