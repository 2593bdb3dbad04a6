import Footlight

/// The logic of the gallery's form, as one value (``Form``) that changes as the user
/// types and submits: each field's problem, a submit allowed only when both fields are
/// good and no sign-up is under way, the last outcome until the next edit. No HTML,
/// sockets or sessions.
public final class SignupFormDirector {
    /// What the form shows.
    public struct Form: Equatable, Sendable {
        public var entry = Entry(email: "", password: "")
        public var submitting = false
        /// The last answer: the new account's name, or why the sign-up failed.
        public var outcome: Result<String, Refusal>?

        public var emailError: String? { SignupFormDirector.emailProblem(entry.email) }
        public var passwordError: String? { SignupFormDirector.passwordProblem(entry.password) }
        public var canSubmit: Bool { entry.isValid && !submitting }
        public var failed: Bool { if case .failure = outcome { true } else { false } }
        public var message: String? {
            switch outcome {
            case nil: nil
            case .success(let name): "Welcome, \(name)!"
            case .failure(let refusal): "Sign-up failed: \(refusal.reason)."
            }
        }
    }

    /// What the user typed.
    public struct Entry: Equatable, Sendable {
        public let email: String
        public let password: String

        var isValid: Bool {
            !email.isEmpty && !password.isEmpty && SignupFormDirector.emailProblem(email) == nil
                && SignupFormDirector.passwordProblem(password) == nil
        }
    }

    /// Why the service refused a sign-up, as the form words it.
    public struct Refusal: Error, Equatable, Sendable {
        public let reason: String

        public init(reason: String) { self.reason = reason }
    }

    /// The form, from the first value on.
    public let form: AnyPublisher<Form, Never>
    private let job: Action<Entry, String>

    /// `signUp` answers an entry with the new account's name, or fails with a ``Refusal``.
    public init(
        email: AnyPublisher<String, Never>, password: AnyPublisher<String, Never>, submit: AnyPublisher<Void, Never>,
        signUp: @escaping (Entry) -> AnyPublisher<String, any Error>
    ) {
        let entry = email.prepend("").combineLatest(password.prepend("")) { Entry(email: $0, password: $1) }
            .shareLatest()
        job = Action(trigger: submit.withLatestFrom(entry).filter(\.isValid), signUp)
        let edited = email.merge(with: password).map { _ -> Result<String, Refusal>? in nil }
        let answered = job.values.map { Result<String, Refusal>.success($0) }
            .merge(with: job.errors.map { .failure($0 as? Refusal ?? Refusal(reason: "\($0)")) })
        let outcome = answered.map { Optional($0) }.merge(with: edited).prepend(nil)
        form = entry.combineLatest(job.isExecuting, outcome) { Form(entry: $0, submitting: $1, outcome: $2) }
            .removeDuplicates().eraseToAnyPublisher()
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
