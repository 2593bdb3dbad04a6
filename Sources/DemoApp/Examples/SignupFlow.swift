import Footlight

/// The screens the sign-up flow moves between. The live implementation presents
/// scenes through a ``Context``; a test passes a fake that records what was shown.
public protocol SignupFlowScreens: AnyObject {
    /// Shows the sign-up form; `signedUp` is called with the new account's name.
    func showSignup(signedUp: @escaping (String) -> Void)
    /// Shows the welcome step for `name`; `continued` is called when the user goes on.
    func showWelcome(name: String, continued: @escaping () -> Void)
    /// Closes the welcome step.
    func closeWelcome()
}

/// A flow controller: sign up, then a welcome step, then back to the page. It holds
/// the order of the steps and nothing else; the scenes hold their logic.
public final class SignupFlow {
    private let screens: any SignupFlowScreens
    /// Names of the accounts that finished the flow, in order (for the app to use).
    public private(set) var completed: [String] = []

    public init(screens: any SignupFlowScreens) {
        self.screens = screens
    }

    /// Shows the first step. The steps' callbacks hold the flow, so it lives as long
    /// as the scenes it showed.
    public func start() {
        screens.showSignup { name in self.signedUp(name) }
    }

    private func signedUp(_ name: String) {
        screens.showWelcome(name: name) {
            self.screens.closeWelcome()
            self.completed.append(name)
        }
    }
}

/// The flow's screens as scenes on a context: the form at the root, the welcome
/// step as a modal.
public final class ContextSignupScreens: SignupFlowScreens {
    private let context: Context
    private let accounts: any AccountService

    public init(context: Context, accounts: any AccountService) {
        self.context = context
        self.accounts = accounts
    }

    public func showSignup(signedUp: @escaping (String) -> Void) {
        context.show(SignupScene(accounts: accounts, signedUp: signedUp))
    }

    public func showWelcome(name: String, continued: @escaping () -> Void) {
        context.present(WelcomeScene(name: name, continued: continued))
    }

    public func closeWelcome() {
        context.dismiss()
    }
}

/// The welcome step: a greeting and a button to go on.
public struct WelcomeScene: Scene {
    let name: String
    let continued: () -> Void

    public init(name: String, continued: @escaping () -> Void) {
        self.name = name
        self.continued = continued
    }

    public func makeStage(context: Context) -> Stage {
        let proceed = PassthroughSubject<Void, Never>()
        let stage = Stage(name: "welcome")
        stage.bind(Just("Welcome aboard, \(name)."), to: "greeting")
        let continued = self.continued
        stage.keep(proceed.sink { continued() })
        stage.on("continue", send: proceed)
        return stage
    }
}
