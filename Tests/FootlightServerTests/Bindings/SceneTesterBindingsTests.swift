import Footlight
import FootlightServer
import FootlightTesting
import Foundation
import Testing

/// `SceneTester.checkBindings`: one line in an app's tests, a failure per page that
/// does not match, with the readable report.
@Suite struct SceneTesterBindingsTests {
    struct CounterScene: Scene {
        func makeStage(context: Context) -> Stage {
            let stage = Stage(name: "counter")
            stage.bind(Just("Count: 0"), to: "count")
            stage.on("increment", send: PassthroughSubject<Void, Never>())
            return stage
        }
    }

    /// A page file holding `html`, removed when the test is done with it.
    func page(_ html: String) throws -> String {
        let path = NSTemporaryDirectory() + "footlight-page-\(getpid())-\(UUID().uuidString).html"
        try Data(html.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    let matchingPage = """
        <template data-stage="counter"><p data-text="count"></p><button data-on-click="increment"></button></template>
        """

    @Test("A page that matches passes, and the report says what was checked")
    func matching() throws {
        let path = try page(matchingPage)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = SceneTester.checkBindings(page: path, scenes: [CounterScene()])
        #expect(report?.isClean == true)
        #expect(report?.checked == ["counter"])
        #expect(SceneTester(CounterScene()).checkBindings(page: path)?.isClean == true)
    }

    @Test("A typo fails the test with the report: both spellings and a did-you-mean")
    func typoFails() throws {
        let path = try page(matchingPage.replacingOccurrences(of: "increment", with: "incremnt"))
        defer { try? FileManager.default.removeItem(atPath: path) }
        withKnownIssue {
            SceneTester.checkBindings(page: path, scenes: [CounterScene()])
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("sends event \"incremnt\"") && text.contains("did you mean \"increment\" (in Swift)?")
                && text.contains("did you mean \"incremnt\" (in the template)?")
        }
    }

    @Test("A page that cannot be read fails the test, naming why")
    func unreadablePage() {
        withKnownIssue {
            SceneTester.checkBindings(page: "/nonexistent/index.html", scenes: [CounterScene()])
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("cannot be read")
        }
    }
}
