import Footlight

/// The sign-up form bound to its template: typing is debounced in the page.
public struct SignupScene: Scene {
    let accounts: any AccountService
    /// Scene output: called with the new account's name after a successful sign-up.
    let signedUp: (String) -> Void

    public init(accounts: any AccountService, signedUp: @escaping (String) -> Void = { _ in }) {
        self.accounts = accounts
        self.signedUp = signedUp
    }

    public func makeStage(context: Context) -> Stage {
        let email = PassthroughSubject<String, Never>()
        let password = PassthroughSubject<String, Never>()
        let submit = PassthroughSubject<Void, Never>()
        let director = SignupDirector(
            email: email.eraseToAnyPublisher(), password: password.eraseToAnyPublisher(),
            submit: submit.eraseToAnyPublisher(), accounts: accounts)
        let stage = Stage(name: "signup")
        stage.bind(director.email, to: "email")
        stage.bind(director.password, to: "password")
        stage.bind(director.emailError, to: "emailError")
        stage.bind(director.passwordError, to: "passwordError")
        stage.bind(director.canSubmit, to: "canSubmit")
        stage.bind(director.submitting, to: "submitting")
        stage.bind(director.message, to: "message")
        stage.on("email", send: email, options: .debounce(.milliseconds(300)))
        stage.on("password", send: password, options: .debounce(.milliseconds(300)))
        stage.on("submit", send: submit)
        let signedUp = self.signedUp
        stage.keep(director.signedUp.sink { signedUp($0) })
        return stage
    }
}

/// A demo account service: accepts any address except taken@example.com, after a
/// short delay on the session's clock.
public struct DemoAccounts: AccountService {
    let clock: any SessionClock
    let delay: Duration

    public init(clock: any SessionClock, delay: Duration = .milliseconds(400)) {
        self.clock = clock
        self.delay = delay
    }

    public func signUp(email: String, password: String) -> AnyPublisher<String, any Error> {
        let result = PassthroughSubject<String, any Error>()
        // The subject is used only on the session's queue, where the caller subscribed.
        nonisolated(unsafe) let subject = result
        clock.schedule(after: delay) {
            let result = subject
            if email == "taken@example.com" {
                result.send(completion: .failure(AccountError(message: "that address already has an account")))
            } else {
                result.send(String(email.prefix { $0 != "@" }))
                result.send(completion: .finished)
            }
        }
        return result.eraseToAnyPublisher()
    }
}
