import Footlight

/// The screens the account flow moves between. The live implementation presents
/// scenes through a ``Context`` (``ContextAccountScreens``); a test passes a fake that
/// records what was shown.
public protocol AccountFlowScreens: AnyObject {
    /// Shows the sign-up form: `signedUp` is called with the new account,
    /// `signInInstead` when the user would rather sign in.
    func showSignup(signedUp: @escaping (Account) -> Void, signInInstead: @escaping () -> Void)
    /// Shows the sign-in form: `signedIn` is called with the account,
    /// `signUpInstead` when the user would rather make an account.
    func showSignin(signedIn: @escaping (Account) -> Void, signUpInstead: @escaping () -> Void)
    /// Shows the welcome step for a new account; `continued` is called when the user
    /// goes on.
    func showWelcome(name: String, continued: @escaping () -> Void)
    /// Closes whichever step is showing.
    func close()
}

/// A flow controller: sign up (or sign in instead), then, for a new account, a
/// welcome step, then back to where the flow started. It holds the order of the
/// steps and nothing else; the scenes hold their logic.
public final class SignupFlow {
    private let screens: any AccountFlowScreens
    private let signedIn: (Account) -> Void
    private let finished: () -> Void

    /// A flow on `screens` that calls `signedIn` as soon as the user has an account
    /// (before the welcome step, so closing that step early loses nothing), and
    /// `finished` once its last screen closed with the user signed in (where the page
    /// that started it can move focus on).
    public init(
        screens: any AccountFlowScreens, signedIn: @escaping (Account) -> Void = { _ in },
        finished: @escaping () -> Void = {}
    ) {
        self.screens = screens
        self.signedIn = signedIn
        self.finished = finished
    }

    /// Shows the first step: the sign-up form, or the sign-in form. The steps'
    /// callbacks hold the flow, so it lives as long as the scenes it showed.
    public func start(signingIn: Bool = false) {
        if signingIn { showSignin() } else { showSignup() }
    }

    private func showSignup() {
        screens.showSignup(
            signedUp: { account in self.signedUp(account) }, signInInstead: { self.showSignin() })
    }

    private func showSignin() {
        screens.showSignin(
            signedIn: { account in
                self.signedIn(account)
                self.screens.close()
                self.finished()
            },
            signUpInstead: { self.showSignup() })
    }

    private func signedUp(_ account: Account) {
        signedIn(account)
        screens.showWelcome(name: account.name) {
            self.screens.close()
            self.finished()
        }
    }
}

/// The flow's screens as scenes on a context. `modal`: every step is a modal over the
/// page, each replacing the one before; otherwise the forms are root scenes and the
/// welcome step a modal.
public final class ContextAccountScreens: AccountFlowScreens {
    private let context: Context
    private let accounts: any AccountService
    private let modal: Bool
    private let language: AnyPublisher<KioskLanguage, Never>
    /// Whether this flow has a modal showing.
    private var presenting = false

    /// Screens on `context`, in the session's `language`.
    public init(
        context: Context, accounts: any AccountService, modal: Bool = true,
        language: AnyPublisher<KioskLanguage, Never> = Just(.fallback).eraseToAnyPublisher()
    ) {
        self.context = context
        self.accounts = accounts
        self.modal = modal
        self.language = language
    }

    public func showSignup(signedUp: @escaping (Account) -> Void, signInInstead: @escaping () -> Void) {
        show(
            modal
                ? SignupScene(
                    accounts: accounts, signedUp: signedUp, signInInstead: signInInstead, template: "signup-dialog",
                    language: language)
                : SignupScene(accounts: accounts, signedUp: signedUp, language: language))
    }

    public func showSignin(signedIn: @escaping (Account) -> Void, signUpInstead: @escaping () -> Void) {
        show(
            SigninScene(
                accounts: accounts, signedIn: signedIn, signUpInstead: signUpInstead,
                language: language))
    }

    public func showWelcome(name: String, continued: @escaping () -> Void) {
        if presenting { context.dismiss() }
        context.present(WelcomeScene(name: name, continued: continued, language: language))
        presenting = true
    }

    public func close() {
        if presenting { context.dismiss() }
        presenting = false
    }

    private func show(_ scene: some Scene) {
        if modal {
            if presenting { context.dismiss() }
            context.present(scene)
            presenting = true
        } else {
            context.show(scene)
        }
    }
}

/// The welcome step: a greeting and a button to go on.
public struct WelcomeScene: Scene {
    let name: String
    let continued: () -> Void
    let language: AnyPublisher<KioskLanguage, Never>

    /// Greets `name` in `language`.
    public init(
        name: String, continued: @escaping () -> Void,
        language: AnyPublisher<KioskLanguage, Never> = Just(.fallback).eraseToAnyPublisher()
    ) {
        self.name = name
        self.continued = continued
        self.language = language
    }

    public func makeStage(context: Context) -> Stage {
        let proceed = PassthroughSubject<Void, Never>()
        let stage = Stage(name: "welcome")
        let name = self.name
        stage.bind(language.removeDuplicates().map { $0.strings.greeting(name) }, to: "greeting")
        stage.bindTexts(\.welcomePage, language: language)
        let continued = self.continued
        stage.keep(proceed.sink { continued() })
        stage.on("continue", send: proceed, options: .oneAtATime)
        return stage
    }
}
