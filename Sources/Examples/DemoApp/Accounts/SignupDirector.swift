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

    /// What the form holds.
    public struct SignupForm: Equatable, Sendable {
        public let email: String
        public let password: String
    }

    public init(
        email emailInput: AnyPublisher<String, Never>, password passwordInput: AnyPublisher<String, Never>,
        submit: AnyPublisher<Void, Never>, accounts: any AccountService
    ) {
        let email = emailInput.prepend("").shareLatest()
        let password = passwordInput.prepend("").shareLatest()
        self.email = email
        self.password = password
        emailError = email.map(Self.emailProblem).eraseToAnyPublisher()
        passwordError = password.map(Self.passwordProblem).eraseToAnyPublisher()
        let form = email.combineLatest(password) { SignupForm(email: $0, password: $1) }.shareLatest()
        let valid = form.map(Self.isComplete)
        let action = Action<SignupForm, Account>(trigger: submit.withLatestFrom(form).filter(Self.isComplete)) { form in
            accounts.signUp(email: form.email, password: form.password)
        }
        self.action = action
        submitting = action.isExecuting
        signedUp = action.values
        canSubmit = valid.combineLatest(action.isExecuting) { $0 && !$1 }.eraseToAnyPublisher()
        let outcome = action.values.map { (text: Optional("Welcome, \($0.name)!"), failed: false) }
            .merge(with: action.errors.map { (text: Optional("Sign-up failed: \(Self.describe($0))."), failed: true) })
            .merge(with: emailInput.merge(with: passwordInput).map { _ in (text: String?.none, failed: false) })
            .prepend((text: nil, failed: false))
            .shareLatest()
        message = outcome.map(\.text).removeDuplicates().eraseToAnyPublisher()
        failed = outcome.map(\.failed).removeDuplicates().eraseToAnyPublisher()
    }

    /// Whether the form can be sent: both fields filled in and acceptable.
    public static func isComplete(_ form: SignupForm) -> Bool {
        !EmailAddress.normalized(form.email).isEmpty && !form.password.isEmpty && emailProblem(form.email) == nil
            && passwordProblem(form.password) == nil
    }

    /// Why `email` is not acceptable, or nil (empty fields are not yet errors). Read as
    /// ``EmailAddress/normalized(_:)`` reads it: white space around it does not count.
    public static func emailProblem(_ email: String) -> String? {
        let email = EmailAddress.normalized(email)
        if email.isEmpty { return nil }
        if email.count > EmailAddress.maximumLength {
            return "Use at most \(EmailAddress.maximumLength) characters (\(email.count) so far)."
        }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasSuffix(".") else {
            return "Enter an email address like name@example.com."
        }
        return nil
    }

    /// Why `password` is not acceptable, or nil.
    public static func passwordProblem(_ password: String) -> String? {
        if password.isEmpty { return nil }
        if password.count > AccountDirectory.maximumPasswordLength {
            return "Use at most \(AccountDirectory.maximumPasswordLength) characters (\(password.count) so far)."
        }
        return password.count < 8 ? "Use at least 8 characters (\(password.count) so far)." : nil
    }

    private static func describe(_ error: any Error) -> String {
        (error as? AccountError)?.message ?? "please try again"
    }
}
