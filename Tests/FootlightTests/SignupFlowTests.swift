import DemoApp
import Footlight
import FootlightTesting
import Testing

/// The flow controller with fake screens: only the order of the steps is tested here.
@Suite struct SignupFlowTests {
    final class FakeScreens: SignupFlowScreens {
        var shown: [String] = []
        var signedUp: ((String) -> Void)?
        var continued: (() -> Void)?

        func showSignup(signedUp: @escaping (String) -> Void) {
            shown.append("signup")
            self.signedUp = signedUp
        }

        func showWelcome(name: String, continued: @escaping () -> Void) {
            shown.append("welcome \(name)")
            self.continued = continued
        }

        func closeWelcome() {
            shown.append("close welcome")
        }
    }

    @Test("Sign up, then welcome, then continue closes the welcome step and completes")
    func order() {
        let screens = FakeScreens()
        let flow = SignupFlow(screens: screens)
        flow.start()
        #expect(screens.shown == ["signup"])
        screens.signedUp?("ada")
        #expect(screens.shown == ["signup", "welcome ada"])
        #expect(flow.completed.isEmpty)
        screens.continued?()
        #expect(screens.shown == ["signup", "welcome ada", "close welcome"])
        #expect(flow.completed == ["ada"])
    }

    @Test("With real scenes: a successful sign-up presents the welcome modal; continue dismisses it")
    func scenes() {
        let tester = SceneTester({ context, _ in
            let accounts = DemoAccounts(clock: context.environment.clock)
            SignupFlow(screens: ContextSignupScreens(context: context, accounts: accounts)).start()
        })
        tester.send("email", to: "signup", value: "ada@example.com")
        tester.expect("signup", ["email": "ada@example.com"])
        tester.send("password", to: "signup", value: "long enough")
        tester.expect("signup", ["password": "long enough", "canSubmit": true])
        tester.send("submit", to: "signup")
        tester.expect("signup", ["submitting": true, "canSubmit": false])
        tester.advance(by: .milliseconds(400))
        tester.expect("signup", ["submitting": false, "canSubmit": true, "message": "Welcome, ada!"])
        tester.expectCommands([.mount(template: "welcome", placement: .modal, url: nil)])
        #expect(tester.document("welcome-1")?["greeting"] == "Welcome aboard, ada.")
        tester.send("continue", to: "welcome-1")
        tester.expectCommands([.unmount(template: "welcome", placement: .modal)])
        tester.finish()
    }
}
