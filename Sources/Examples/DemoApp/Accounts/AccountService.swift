import Footlight

/// Creates accounts and signs users in; ``SessionAccounts`` on the shared
/// ``AccountDirectory`` live, a fake in tests.
public protocol AccountService {
    /// Signs up and publishes the new account, or fails with an ``AccountError``.
    func signUp(email: String, password: String) -> AnyPublisher<Account, any Error>
    /// Signs in and publishes the account, or fails with an ``AccountError``.
    func signIn(email: String, password: String) -> AnyPublisher<Account, any Error>
}

/// A refused sign-up or sign-in: why, in words for the user in every language the
/// kiosk speaks (``KioskStrings/accountError``).
public struct AccountError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why the accounts refused.
    public enum Reason: Equatable, Sendable {
        /// The address is registered already.
        case taken
        /// No account has this address and password (which one is wrong is not said).
        case wrongCredentials
        /// The accounts cannot be read or written now (the database failed; logged).
        case unavailable
        /// Too many sign-ins and sign-ups wait already.
        case busy
        /// The kiosk holds as many accounts as it keeps.
        case full
        /// The address is longer than the kiosk keeps.
        case addressTooLong
        /// The password is longer than the kiosk keeps.
        case passwordTooLong
    }

    /// Why the accounts refused.
    public let reason: Reason

    public init(_ reason: Reason) { self.reason = reason }

    /// The reason in English, for logs and tests.
    public var message: String { KioskStrings.english.accountError(self) }
    public var description: String { message }

    public static let taken = AccountError(.taken)
    public static let wrongCredentials = AccountError(.wrongCredentials)
    public static let unavailable = AccountError(.unavailable)
    public static let busy = AccountError(.busy)
    public static let full = AccountError(.full)
}
