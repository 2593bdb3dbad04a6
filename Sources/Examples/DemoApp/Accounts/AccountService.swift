import Footlight

/// Creates accounts and signs users in; ``SessionAccounts`` on the shared
/// ``AccountDirectory`` live, a fake in tests.
public protocol AccountService {
    /// Signs up and publishes the new account, or fails with an ``AccountError``.
    func signUp(email: String, password: String) -> AnyPublisher<Account, any Error>
    /// Signs in and publishes the account, or fails with an ``AccountError``.
    func signIn(email: String, password: String) -> AnyPublisher<Account, any Error>
}

/// A refused sign-up or sign-in, with a message for the user.
public struct AccountError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }

    /// The address is registered already.
    public static let taken = AccountError(message: "that address already has an account")
    /// No account has this address and password (which one is wrong is not said).
    public static let wrongCredentials = AccountError(message: "the email or the password is not right")
    /// The accounts cannot be read or written now (the database failed; logged).
    public static let unavailable = AccountError(message: "accounts are not available right now; please try again")
    /// Too many sign-ins and sign-ups wait already.
    public static let busy = AccountError(message: "the kiosk is busy; please try again in a moment")
    /// The address or the password is longer than the kiosk keeps.
    public static func tooLong(_ what: String) -> AccountError { AccountError(message: "the \(what) is too long") }
}
