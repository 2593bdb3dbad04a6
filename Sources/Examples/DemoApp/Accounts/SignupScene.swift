import Footlight

/// Sign-up: a frame (a card on the page, or a dialog) holding the sign-up form, a
/// component of its own (``SignupFormScene``) placed at its host "form".
public struct SignupScene: Scene {
    let accounts: any AccountService
    /// Scene output: called with the new account after a successful sign-up.
    let signedUp: (Account) -> Void
    /// Scene output: the user would rather sign in (nil: the frame offers no such link).
    let signInInstead: (() -> Void)?
    /// The frame's template: "signup" (a card on the page) or "signup-dialog" (a modal).
    let template: String
    /// The session's language (the texts, bound to `t`, and the Director's messages).
    let language: AnyPublisher<KioskLanguage, Never>

    public init(
        accounts: any AccountService, signedUp: @escaping (Account) -> Void = { _ in },
        signInInstead: (() -> Void)? = nil, template: String = "signup",
        language: AnyPublisher<KioskLanguage, Never> = Just(.fallback).eraseToAnyPublisher()
    ) {
        self.language = language
        self.accounts = accounts
        self.signedUp = signedUp
        self.signInInstead = signInInstead
        self.template = template
    }

    public func makeStage(context: Context) -> Stage {
        let stage = Stage(name: template)
        stage.bindTexts(\.signupPage, language: language)
        stage.place(
            SignupFormScene(accounts: accounts, signedUp: signedUp, language: language).makeStage(context: context),
            at: "form")
        stage.bind(Just(signInInstead != nil), to: "signInOffered")
        if let signInInstead {
            let signIn = PassthroughSubject<Void, Never>()
            stage.keep(signIn.sink { signInInstead() })
            stage.on("signIn", send: signIn, options: .oneAtATime)
        }
        return stage
    }
}

/// The sign-up form, a component (template "signup-form"): its Director, typing
/// debounced in the page, and the address kept for a rebuilt session.
public struct SignupFormScene: Scene {
    let accounts: any AccountService
    /// Scene output: called with the new account after a successful sign-up.
    let signedUp: (Account) -> Void
    let language: AnyPublisher<KioskLanguage, Never>

    public init(
        accounts: any AccountService, signedUp: @escaping (Account) -> Void = { _ in },
        language: AnyPublisher<KioskLanguage, Never> = Just(.fallback).eraseToAnyPublisher()
    ) {
        self.accounts = accounts
        self.signedUp = signedUp
        self.language = language
    }

    public func makeStage(context: Context) -> Stage {
        let email = PassthroughSubject<String, Never>()
        let password = PassthroughSubject<String, Never>()
        let submit = PassthroughSubject<Void, Never>()
        let director = SignupDirector(
            email: email.eraseToAnyPublisher(), password: password.eraseToAnyPublisher(),
            submit: submit.eraseToAnyPublisher(), accounts: accounts,
            language: language)
        let stage = Stage(name: "signup-form")
        stage.bindTexts(\.signupForm, language: language)
        stage.bind(director.email, to: "email")
        stage.bind(director.password, to: "password")
        stage.bind(director.emailError, to: "emailError")
        stage.bind(director.passwordError, to: "passwordError")
        stage.bind(director.canSubmit, to: "canSubmit")
        stage.bind(director.submitting, to: "submitting")
        stage.bind(director.message, to: "message")
        stage.bind(director.failed, to: "failed")
        stage.on("email", send: email, options: EventOptions(debounce: .milliseconds(300), recoverable: true))
        stage.on("password", send: password, options: .debounce(.milliseconds(300)))
        stage.on("submit", send: submit, options: .oneAtATime)
        let signedUp = self.signedUp
        stage.keep(director.signedUp.sink { signedUp($0) })
        return stage
    }
}
