import Footlight

/// A sign-up form's logic: validation as the user types, a submit that runs once at a
/// time, and the outcome as a message (a failure cleared by the next edit). Knows
/// nothing of HTML or sockets.
public final class SignupDirector {
    public let email: AnyPublisher<String, Never>
    public let password: AnyPublisher<String, Never>
    public let emailError: AnyPublisher<String?, Never>
    public let passwordError: AnyPublisher<String?, Never>
    public let canSubmit: AnyPublisher<Bool, Never>
    public let submitting: AnyPublisher<Bool, Never>
    /// The last outcome: a welcome, or why the sign-up failed; cleared when a field is edited.
    public let message: AnyPublisher<String?, Never>
    /// Whether `message` reports a failure (styled and announced as an error).
    public let failed: AnyPublisher<Bool, Never>
    /// Scene output: the new account, once per successful sign-up.
    public let signedUp: AnyPublisher<Account, Never>
    private let action: Action<SignupForm, Account>

    /// The last submit's outcome, none once a field is edited.
    private enum Outcome {
        case none
        case signedUp(Account)
        case failed(any Error)
    }

    /// What the form holds.
    public struct SignupForm: Equatable, Sendable {
        public let email: String
        public let password: String
    }

    public init(
        email emailInput: AnyPublisher<String, Never>, password passwordInput: AnyPublisher<String, Never>,
        submit: AnyPublisher<Void, Never>, accounts: any AccountService,
        language languageInput: AnyPublisher<KioskLanguage, Never> = Just(.fallback).eraseToAnyPublisher()
    ) {
        let email = emailInput.prepend("").shareLatest()
        let password = passwordInput.prepend("").shareLatest()
        let language = languageInput.removeDuplicates().shareLatest()
        self.email = email
        self.password = password
        emailError = email.combineLatest(language) { Self.emailProblem($0, in: $1) }.removeDuplicates()
            .eraseToAnyPublisher()
        passwordError = password.combineLatest(language) { Self.passwordProblem($0, in: $1) }.removeDuplicates()
            .eraseToAnyPublisher()
        let form = email.combineLatest(password) { SignupForm(email: $0, password: $1) }.shareLatest()
        let valid = form.map(Self.isComplete)
        let action = Action<SignupForm, Account>(trigger: submit.withLatestFrom(form).filter(Self.isComplete)) { form in
            accounts.signUp(email: form.email, password: form.password)
        }
        self.action = action
        submitting = action.isExecuting
        signedUp = action.values
        canSubmit = valid.combineLatest(action.isExecuting) { $0 && !$1 }.eraseToAnyPublisher()
        let outcome = action.values.map { Outcome.signedUp($0) }
            .merge(with: action.errors.map { Outcome.failed($0) })
            .merge(with: emailInput.merge(with: passwordInput).map { _ in Outcome.none })
            .prepend(.none)
            .shareLatest()
        message = outcome.combineLatest(language) { outcome, language in
            let strings = language.strings
            return switch outcome {
            case .none: nil
            case .signedUp(let account): strings.welcome(account.name)
            case .failed(let error): strings.signupFailed(strings.accountError(error as? AccountError))
            }
        }
        .removeDuplicates()
        .eraseToAnyPublisher()
        failed = outcome.map { if case .failed = $0 { true } else { false } }.removeDuplicates().eraseToAnyPublisher()
    }

    /// Whether the form can be sent: both fields filled in and acceptable.
    public static func isComplete(_ form: SignupForm) -> Bool {
        !EmailAddress.normalized(form.email).isEmpty && !form.password.isEmpty && emailProblem(form.email) == nil
            && passwordProblem(form.password) == nil
    }

    /// Why `email` is not acceptable, or nil (empty fields are not yet errors). Read as
    /// ``EmailAddress/normalized(_:)`` reads it: white space around it does not count.
    public static func emailProblem(_ email: String, in language: KioskLanguage = .fallback) -> String? {
        let email = EmailAddress.normalized(email)
        if email.isEmpty { return nil }
        if email.count > EmailAddress.maximumLength {
            return language.strings.tooManyCharacters(EmailAddress.maximumLength, email.count)
        }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasSuffix(".") else {
            return language.strings.notAnEmail
        }
        return nil
    }

    /// Why `password` is not acceptable, or nil.
    public static func passwordProblem(_ password: String, in language: KioskLanguage = .fallback) -> String? {
        if password.isEmpty { return nil }
        if password.count > AccountDirectory.maximumPasswordLength {
            return language.strings.tooManyCharacters(AccountDirectory.maximumPasswordLength, password.count)
        }
        return password.count < 8 ? language.strings.tooFewCharacters(8, password.count) : nil
    }
}
