import Footlight
import FootlightJSON

/// The gallery's form (template "signup"): a card holding ``SignupFormScene``, a
/// component placed at its host "form". One runtime feature: a form whose fields are
/// checked as they are typed (paced in the page), whose submit runs once at a time
/// with its progress shown, and whose outcome comes from ``TrialSignups``.
public struct SignupCardScene: Scene {
    public init() {}

    public func makeStage(context: Context) -> Stage {
        let stage = Stage(name: "signup")
        let signups = TrialSignups(clock: context.environment.clock)
        stage.place(SignupFormScene(signups: signups).makeStage(context: context), at: "form")
        return stage
    }
}

/// The form itself (component template "signup-form"): the fields, their errors, the
/// submit and its outcome, from a ``SignupFormDirector``.
public struct SignupFormScene: Scene {
    /// The template's fixed texts (slot `t`).
    static let texts: JSON = [
        "lang": "en", "email": "Email", "password": "Password", "submit": "Sign up", "submitting": "Signing up…",
    ]

    let signups: TrialSignups

    public init(signups: TrialSignups) { self.signups = signups }

    public func makeStage(context: Context) -> Stage {
        let email = PassthroughSubject<String, Never>()
        let password = PassthroughSubject<String, Never>()
        let submit = PassthroughSubject<Void, Never>()
        let director = SignupFormDirector(
            email: email.eraseToAnyPublisher(), password: password.eraseToAnyPublisher(),
            submit: submit.eraseToAnyPublisher(), signUp: signups.signUp)
        let stage = Stage(name: "signup-form")
        stage.bind(Just(Self.texts), to: "t")
        stage.bind(director.email, to: "email")
        stage.bind(director.password, to: "password")
        stage.bind(director.emailError, to: "emailError")
        stage.bind(director.passwordError, to: "passwordError")
        stage.bind(director.canSubmit, to: "canSubmit")
        stage.bind(director.submitting, to: "submitting")
        stage.bind(director.message, to: "message")
        stage.bind(director.failed, to: "failed")
        // The address survives a server restart (the page's value rebuilds it); a
        // password is never kept.
        stage.on("email", send: email, options: EventOptions(debounce: .milliseconds(300), recoverable: true))
        stage.on("password", send: password, options: .debounce(.milliseconds(300)))
        stage.on("submit", send: submit)
        return stage
    }
}
