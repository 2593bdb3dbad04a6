import FootlightJSON
import FootlightProbes
import FootlightServer
import FootlightTesting
import Testing

/// One scene test body, run in process (`SceneTester`, exhaustive) and over a real
/// socket against a live server (`LiveScene`): both drive the same session state
/// machine, so they must agree.
@Suite(.timeLimit(.minutes(1)))
struct SceneBothWaysTests {
    /// The probe app: count, open a lot's page and close it, present the About modal.
    static func body(_ scene: some SceneSession) async throws {
        try await scene.send("increment", to: "counter")
        try await scene.expect("counter", ["count": "Count: 1"])
        try await scene.send("increment", to: "counter")
        try await scene.expect("counter", ["count": "Count: 2"])
        try await scene.send("open", to: "lots", value: ["id": "lot-3"])
        try await scene.expectCommands([.mount(template: "detail", placement: .push, url: "/lots/lot-3")])
        try await scene.send("close", to: "detail-1")
        try await scene.expectCommands([.unmount(template: "detail", placement: .push)])
        try await scene.send("about", to: "counter")
        try await scene.expectCommands([.mount(template: "about", placement: .modal, url: nil)])
    }

    @Test("In process, through SceneTester")
    func inProcess() async throws {
        let tester = SceneTester(ProbeApp.entry)
        try await Self.body(tester.session)
        tester.finish()
    }

    @Test("Over a socket, against a live server")
    func overASocket() async throws {
        let live = try await LiveScene.start(ProbeApp.entry)
        defer { live.stop() }
        try await Self.body(live)
    }
}
