import Footlight

/// A sign-in form's logic: both fields required, a submit that runs once at a time,
/// and a refusal as a message. Knows nothing of HTML or sockets.
public final class SigninDirector {
    /// The email field's text.
    public let email: AnyPublisher<String, Never>
    /// The password field's text.
    public let password: AnyPublisher<String, Never>
    /// Whether the submit button is enabled: both fields filled in, no request running.
    public let canSubmit: AnyPublisher<Bool, Never>
    /// Whether a sign-in is in progress.
    public let submitting: AnyPublisher<Bool, Never>
    /// Why the last sign-in failed; cleared when the user edits a field.
    public let message: AnyPublisher<String?, Never>
    /// Scene output: the account, once per successful sign-in.
    public let signedIn: AnyPublisher<Account, Never>

    private struct Credentials: Equatable {
        let email: String
        let password: String
        var isComplete: Bool { email.contains(where: { !$0.isWhitespace }) && !password.isEmpty }
    }

    public init(
        email emailInput: AnyPublisher<String, Never>, password passwordInput: AnyPublisher<String, Never>,
        submit: AnyPublisher<Void, Never>, accounts: any AccountService,
        language: AnyPublisher<KioskLanguage, Never> = Just(.fallback).eraseToAnyPublisher()
    ) {
        let email = emailInput.prepend("").shareLatest()
        let password = passwordInput.prepend("").shareLatest()
        self.email = email
        self.password = password
        let form = email.combineLatest(password) { Credentials(email: $0, password: $1) }.shareLatest()
        let action = Action<Credentials, Account>(trigger: submit.withLatestFrom(form).filter(\.isComplete)) { form in
            accounts.signIn(email: EmailAddress.normalized(form.email), password: form.password)
        }
        submitting = action.isExecuting
        signedIn = action.values
        canSubmit = form.map(\.isComplete).combineLatest(action.isExecuting) { $0 && !$1 }
            .removeDuplicates()
            .eraseToAnyPublisher()
        message = action.errors.map { Optional($0) }
            .merge(with: emailInput.merge(with: passwordInput).map { _ in (any Error)?.none })
            .prepend(nil)
            .combineLatest(language.removeDuplicates()) { error, language in
                let strings = language.strings
                return error.map { strings.signinFailed(strings.accountError($0 as? AccountError)) }
            }
            .removeDuplicates()
            .eraseToAnyPublisher()
    }
}

extension String {
    /// The text without leading and trailing white space.
    var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
