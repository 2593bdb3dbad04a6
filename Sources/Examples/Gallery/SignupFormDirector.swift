import Footlight

/// The logic of the gallery's form: each field's problem as it is typed, a submit
/// allowed only when both fields are good and no sign-up is under way, and the last
/// outcome as a message, until the next edit. No HTML, sockets or sessions.
public final class SignupFormDirector {
    public let email: AnyPublisher<String, Never>
    public let password: AnyPublisher<String, Never>
    public let emailError: AnyPublisher<String?, Never>
    public let passwordError: AnyPublisher<String?, Never>
    public let canSubmit: AnyPublisher<Bool, Never>
    public let submitting: AnyPublisher<Bool, Never>
    /// "Welcome, Ada!" or why the sign-up failed; nil before a submit and after an edit.
    public let message: AnyPublisher<String?, Never>
    /// Whether `message` tells of a failure.
    public let failed: AnyPublisher<Bool, Never>
    private let job: Action<Entry, String>

    /// What the user typed.
    public struct Entry: Equatable, Sendable {
        public let email: String
        public let password: String

        var isValid: Bool {
            !email.isEmpty && !password.isEmpty && SignupFormDirector.emailProblem(email) == nil
                && SignupFormDirector.passwordProblem(password) == nil
        }
    }

    /// `signUp` answers an entry with the new account's name, or fails with its reason.
    public init(
        email typedEmail: AnyPublisher<String, Never>, password typedPassword: AnyPublisher<String, Never>,
        submit: AnyPublisher<Void, Never>, signUp: @escaping (Entry) -> AnyPublisher<String, any Error>
    ) {
        let email = typedEmail.prepend("").shareLatest()
        let password = typedPassword.prepend("").shareLatest()
        let entry = email.combineLatest(password) { Entry(email: $0, password: $1) }.shareLatest()
        job = Action(trigger: submit.withLatestFrom(entry).filter(\.isValid), signUp)
        self.email = email
        self.password = password
        emailError = email.map(Self.emailProblem).removeDuplicates().eraseToAnyPublisher()
        passwordError = password.map(Self.passwordProblem).removeDuplicates().eraseToAnyPublisher()
        submitting = job.isExecuting
        canSubmit = entry.map(\.isValid).combineLatest(job.isExecuting) { valid, busy in valid && !busy }
            .removeDuplicates().eraseToAnyPublisher()
        // The last word: a welcome, a failure, or nothing once a field changes again.
        let said: AnyPublisher<(text: String, failed: Bool)?, Never> = job.values.map { ("Welcome, \($0)!", false) }
            .merge(with: job.errors.map { ("Sign-up failed: \(String(describing: $0)).", true) })
            .merge(with: typedEmail.merge(with: typedPassword).map { _ in nil })
            .prepend(nil)
            .shareLatest()
        message = said.map { $0?.text }.removeDuplicates().eraseToAnyPublisher()
        failed = said.map { $0?.failed ?? false }.removeDuplicates().eraseToAnyPublisher()
    }

    /// What is wrong with `email`, if anything; an empty field is not yet wrong.
    public static func emailProblem(_ email: String) -> String? {
        let email = email.trimmingWhitespace()
        guard !email.isEmpty else { return nil }
        let halves = email.split(separator: "@", omittingEmptySubsequences: false)
        let domain = halves.count == 2 ? halves[1] : ""
        let plausible = halves.count == 2 && !halves[0].isEmpty && domain.contains(".") && domain.last != "."
        return plausible ? nil : "Enter an email address like name@example.com."
    }

    /// What is wrong with `password`, if anything; an empty field is not yet wrong.
    public static func passwordProblem(_ password: String) -> String? {
        password.isEmpty || password.count >= 8 ? nil : "Use at least 8 characters (\(password.count) so far)."
    }
}

extension String {
    /// The string without white space (including no-break spaces) at either end.
    func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
