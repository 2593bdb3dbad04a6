import Footlight
import FootlightServer
import FootlightTesting
import Foundation
import Testing

/// A server in development mode checks its app's bindings against its pages at start
/// and logs each mismatch at warning level; out of development mode it reads nothing.
@Suite(.timeLimit(.minutes(1)))
struct DevelopmentBindingCheckTests {
    /// A public folder holding `html` as its index page (a folder of its own per test).
    func publicFolder(_ html: String) throws -> String {
        let path = NSTemporaryDirectory() + "footlight-bindings-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path + "/nested", withIntermediateDirectories: true)
        try Data(html.utf8).write(to: URL(fileURLWithPath: path + "/index.html"))
        try Data("<template data-stage=\"other\"><p data-text=\"x\"></p></template>".utf8)
            .write(to: URL(fileURLWithPath: path + "/nested/other.html"))
        return path
    }

    /// The counter, at "/", and a note deep-linked at "/note".
    static let app: AppEntry = { context, path in
        context.show(Made(make: counter))
        if path == "/note" {
            context.push(
                Made {
                    let note = Stage(name: "note")
                    note.bind(Just("hello"), to: "text")
                    return note
                }, url: "/note")
        }
    }

    /// A scene whose stage `make` makes.
    struct Made: Scene {
        let make: () -> Stage
        func makeStage(context: Context) -> Stage { make() }
    }

    static func counter() -> Stage {
        let stage = Stage(name: "counter")
        stage.bind(Just("Count: 0"), to: "count")
        stage.on("increment", send: PassthroughSubject<Void, Never>())
        return stage
    }

    let typo = """
        <!doctype html>
        <template data-stage="counter">
          <p data-text="cont"></p>
          <button data-on-click="increment">Add one</button>
        </template>
        <template data-stage="note"><p data-text="txet"></p></template>
        """

    func start(_ html: String, development: Bool, paths: [String] = ["/"]) throws -> (Server, LogCapture) {
        let log = LogCapture()
        let folder = try publicFolder(html)
        let server = try TestServer.startApp(Self.app) {
            $0.publicDirectory = folder
            $0.development = development
            $0.bindingCheckPaths = paths
            $0.logger = log.logger
        }
        return (server, log)
    }

    @Test("In development, a mismatch is logged at start with both spellings and a did-you-mean")
    func logsMismatches() throws {
        let (server, log) = try start(typo, development: true)
        defer { server.shutdown() }
        let warnings = log.messages.filter { $0.contains("bindings:") }
        #expect(warnings.count == 2)
        #expect(
            warnings.contains {
                $0.contains("data-text=\"cont\" (line 3): names slot \"cont\"")
                    && $0.contains("did you mean \"count\" (in Swift)?")
            })
        #expect(warnings.contains { $0.contains("binds slot \"count\"") && $0.contains("did you mean \"cont\"") })
        #expect(log.contains("bindings checked: 1 stage(s) shown at / against 2 page(s), 2 mismatch(es)"))
    }

    @Test("The paths named are each started once: a deep link's stage is checked too")
    func checksEachPath() throws {
        let (server, log) = try start(typo, development: true, paths: ["/", "/note"])
        defer { server.shutdown() }
        #expect(log.contains("did you mean \"text\" (in Swift)?"))
        #expect(log.contains("bindings checked: 3 stage(s) shown at /, /note against 2 page(s), 4 mismatch(es)"))
    }

    @Test("A page that cannot be read is logged, and the server starts")
    func malformedPage() throws {
        let (server, log) = try start("<template data-stage=\"counter\"><p data-text=\"count", development: true)
        defer { server.shutdown() }
        #expect(log.contains("bindings not checked against"))
        #expect(log.contains("is not closed"))
    }

    @Test("Out of development mode, nothing is checked")
    func offByDefault() throws {
        let (server, log) = try start(typo, development: false)
        defer { server.shutdown() }
        #expect(!log.contains("bindings:") && !log.contains("bindings checked"))
    }
}
