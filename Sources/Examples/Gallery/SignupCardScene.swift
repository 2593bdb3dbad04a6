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
        let typed = (email: PassthroughSubject<String, Never>(), password: PassthroughSubject<String, Never>())
        let submit = PassthroughSubject<Void, Never>()
        let form = SignupFormDirector(
            email: typed.email.eraseToAnyPublisher(), password: typed.password.eraseToAnyPublisher(),
            submit: submit.eraseToAnyPublisher(), signUp: signups.signUp
        ).form.shareLatest()
        let stage = Stage(name: "signup-form")
        func show<Value: ViewValue & Equatable>(_ slot: String, _ part: KeyPath<SignupFormDirector.Form, Value>) {
            stage.bind(form.map(part).removeDuplicates(), to: slot)
        }
        stage.bind(Just(Self.texts), to: "t")
        show("email", \.entry.email)
        show("password", \.entry.password)
        show("emailError", \.emailError)
        show("passwordError", \.passwordError)
        show("canSubmit", \.canSubmit)
        show("submitting", \.submitting)
        show("message", \.message)
        show("failed", \.failed)
        // Typing is paced in the page; the address is kept for a session rebuilt after a
        // restart, a password never.
        stage.on("email", send: typed.email, options: EventOptions(debounce: .milliseconds(300), recoverable: true))
        stage.on("password", send: typed.password, options: .debounce(.milliseconds(300)))
        stage.on("submit", send: submit, options: .oneAtATime)
        return stage
    }
}
