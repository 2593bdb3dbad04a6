import DemoApp
import Footlight
import FootlightTesting
import Testing

/// The account flow controller with fake screens: only the order of the steps is
/// tested here; the scenes have their own tests.
@Suite struct SignupFlowTests {
    final class FakeScreens: AccountFlowScreens {
        var shown: [String] = []
        var signedUp: ((Account) -> Void)?
        var signInInstead: (() -> Void)?
        var signedIn: ((Account) -> Void)?
        var signUpInstead: (() -> Void)?
        var continued: (() -> Void)?

        func showSignup(signedUp: @escaping (Account) -> Void, signInInstead: @escaping () -> Void) {
            shown.append("signup")
            self.signedUp = signedUp
            self.signInInstead = signInInstead
        }

        func showSignin(signedIn: @escaping (Account) -> Void, signUpInstead: @escaping () -> Void) {
            shown.append("signin")
            self.signedIn = signedIn
            self.signUpInstead = signUpInstead
        }

        func showWelcome(name: String, continued: @escaping () -> Void) {
            shown.append("welcome \(name)")
            self.continued = continued
        }

        func close() {
            shown.append("close")
        }

        /// Drops the callbacks, which hold the flow that holds this fake (a cycle only a
        /// fake has: live screens hand the callbacks to scenes, which the page removes).
        func forget() {
            (signedUp, signInInstead, signedIn, signUpInstead, continued) = (nil, nil, nil, nil, nil)
        }
    }

    static let ada = Account(email: "ada@example.com", name: "Ada", website: "https://example.com/")

    @Test("Sign up: the account is reported at once, then welcome, then continue closes the flow")
    func signUp() {
        let screens = FakeScreens()
        defer { screens.forget() }
        var accounts: [Account] = []
        let flow = SignupFlow(screens: screens) { accounts.append($0) }
        flow.start()
        #expect(screens.shown == ["signup"])
        screens.signedUp?(Self.ada)
        #expect(screens.shown == ["signup", "welcome Ada"])
        #expect(accounts == [Self.ada], "signed in before the welcome step: closing it early loses nothing")
        screens.continued?()
        #expect(screens.shown == ["signup", "welcome Ada", "close"])
        #expect(accounts == [Self.ada])
    }

    @Test("Sign in instead: the sign-in form, and a sign-in closes the flow without a welcome step")
    func signInInstead() {
        let screens = FakeScreens()
        defer { screens.forget() }
        var accounts: [Account] = []
        SignupFlow(screens: screens) { accounts.append($0) }.start()
        screens.signInInstead?()
        #expect(screens.shown == ["signup", "signin"])
        #expect(accounts.isEmpty)
        screens.signedIn?(Self.ada)
        #expect(screens.shown == ["signup", "signin", "close"])
        #expect(accounts == [Self.ada])
    }

    @Test("Starting at sign-in, then back to sign-up and through it")
    func signInThenSignUp() {
        let screens = FakeScreens()
        defer { screens.forget() }
        var accounts: [Account] = []
        SignupFlow(screens: screens) { accounts.append($0) }.start(signingIn: true)
        #expect(screens.shown == ["signin"])
        screens.signUpInstead?()
        screens.signedUp?(Self.ada)
        screens.continued?()
        #expect(screens.shown == ["signin", "signup", "welcome Ada", "close"])
        #expect(accounts == [Self.ada])
    }

    @Test("With real scenes at the root: a sign-up presents the welcome modal; continue dismisses it")
    func scenes() throws {
        let tester = SceneTester({ context, _ in
            let accounts = SessionAccounts(
                directory: AccountDirectory(cost: .minimal), clock: context.environment.clock)
            SignupFlow(screens: ContextAccountScreens(context: context, accounts: accounts, modal: false)).start()
        })
        let form = try #require(tester.component("form", in: "signup"))
        tester.send("email", to: form, value: "ada.l@example.com")
        tester.expect(form, ["email": "ada.l@example.com"])
        tester.send("password", to: form, value: "long enough")
        tester.expect(form, ["password": "long enough", "canSubmit": true])
        tester.send("submit", to: form)
        tester.expect(form, ["submitting": true, "canSubmit": false])
        tester.advance(by: .milliseconds(400))
        tester.expect(form, ["submitting": false, "canSubmit": true, "message": "Welcome, Ada L!"])
        tester.expectCommands([.mount(template: "welcome", placement: .modal, url: nil)])
        #expect(tester.document("welcome-1")?["greeting"] == "Welcome aboard, Ada L.")
        tester.send("continue", to: "welcome-1")
        tester.expectCommands([.unmount(template: "welcome", placement: .modal)])
        tester.finish()
    }

    @Test("Closing the sign-up dialog while it signs up cancels the request: no account is made")
    func closedWhileSigningUp() throws {
        let directory = AccountDirectory(seeded: [], cost: .minimal)
        let tester = SceneTester({ context, _ in
            let accounts = SessionAccounts(directory: directory, clock: context.environment.clock)
            SignupFlow(screens: ContextAccountScreens(context: context, accounts: accounts, modal: true)).start()
        })
        let form = try #require(tester.component("form", in: "signup-dialog-1"))
        #expect(tester.stageIDs == ["signup-dialog-1"])
        tester.send("email", to: form, value: "late@example.com")
        tester.expect(form, ["email": "late@example.com"])
        tester.send("password", to: form, value: "long enough")
        tester.expect(form, ["password": "long enough", "canSubmit": true])
        tester.send("submit", to: form)
        tester.expect(form, ["submitting": true, "canSubmit": false])
        // The visitor closes the dialog (Escape, or the browser's back button).
        tester.send("@back", to: "signup-dialog-1")
        tester.expectCommands([
            .unmountComponent(template: "signup-form"), .unmount(template: "signup-dialog", placement: .modal),
        ])
        tester.advance(by: .seconds(2))
        #expect(tester.stageIDs.isEmpty)
        #expect(directory.signIn(email: "late@example.com", password: "long enough") == .failure(.wrongCredentials))
        tester.finish()
    }
}
