import Footlight

/// The sign-in form bound to its template, with a way back to signing up.
public struct SigninScene: Scene {
    let accounts: any AccountService
    /// Scene output: called with the account after a successful sign-in.
    let signedIn: (Account) -> Void
    /// Scene output: the user would rather make an account.
    let signUpInstead: () -> Void
    /// The session's language.
    let language: AnyPublisher<KioskLanguage, Never>

    public init(
        accounts: any AccountService, signedIn: @escaping (Account) -> Void, signUpInstead: @escaping () -> Void,
        language: AnyPublisher<KioskLanguage, Never> = Just(.fallback).eraseToAnyPublisher()
    ) {
        self.accounts = accounts
        self.language = language
        self.signedIn = signedIn
        self.signUpInstead = signUpInstead
    }

    public func makeStage(context: Context) -> Stage {
        let email = PassthroughSubject<String, Never>()
        let password = PassthroughSubject<String, Never>()
        let submit = PassthroughSubject<Void, Never>()
        let signUp = PassthroughSubject<Void, Never>()
        let director = SigninDirector(
            email: email.eraseToAnyPublisher(), password: password.eraseToAnyPublisher(),
            submit: submit.eraseToAnyPublisher(), accounts: accounts, language: language)
        let stage = Stage(name: "signin")
        stage.bindTexts(\.signinPage, language: language)
        stage.bind(director.email, to: "email")
        stage.bind(director.password, to: "password")
        stage.bind(director.canSubmit, to: "canSubmit")
        stage.bind(director.submitting, to: "submitting")
        stage.bind(director.message, to: "message")
        stage.on("email", send: email, options: EventOptions(debounce: .milliseconds(150), recoverable: true))
        stage.on("password", send: password, options: .debounce(.milliseconds(150)))
        stage.on("submit", send: submit, options: .oneAtATime)
        stage.on("signUp", send: signUp, options: .oneAtATime)
        let signedIn = self.signedIn
        let signUpInstead = self.signUpInstead
        stage.keep(director.signedIn.sink { signedIn($0) })
        stage.keep(signUp.sink { signUpInstead() })
        return stage
    }
}
