import Footlight

/// Every account of the running app, shared by all sessions (thread-safe). Kept in
/// memory: the demo forgets its accounts when the server stops.
public final class AccountDirectory: Sendable {
    private struct Entry {
        let account: Account
        let password: String
    }
    /// Accounts by ``EmailAddress/key(_:)``.
    private let entries: Locked<[String: Entry]>
    /// At most this many accounts; sign-ups beyond it are refused (no unbounded growth).
    public let capacity: Int

    /// A directory holding `seeded` accounts (with their passwords), taking at most
    /// `capacity` in all.
    public init(seeded: [(Account, password: String)] = AccountDirectory.demoAccounts, capacity: Int = 10_000) {
        var entries: [String: Entry] = [:]
        for (account, password) in seeded {
            entries[EmailAddress.key(account.email)] = Entry(account: account, password: password)
        }
        self.entries = Locked(entries)
        self.capacity = capacity
    }

    /// The accounts every demo starts with: Ada (password "lovelace1843"), and an address
    /// that is taken, to show the error.
    public static let demoAccounts: [(Account, password: String)] = [
        (Account(email: "ada@example.com", name: "Ada Lovelace", website: "https://example.com/ada"), "lovelace1843"),
        (Account(signingUpWith: "taken@example.com"), "taken-password"),
    ]

    /// The most characters a password may have.
    public static let maximumPasswordLength = 128

    /// Registers a new account for `email` (normalized: ``EmailAddress/normalized(_:)``).
    /// Addresses and passwords over their length limits are refused here too, whatever
    /// the form checked.
    public func signUp(email: String, password: String) -> Result<Account, AccountError> {
        let email = EmailAddress.normalized(email)
        guard email.count <= EmailAddress.maximumLength else { return .failure(.tooLong("address")) }
        guard password.count <= Self.maximumPasswordLength else { return .failure(.tooLong("password")) }
        let key = EmailAddress.key(email)
        return entries.withLock { entries in
            guard entries[key] == nil else { return .failure(.taken) }
            guard entries.count < capacity else { return .failure(AccountError(message: "the kiosk is full, sorry")) }
            let account = Account(signingUpWith: email)
            entries[key] = Entry(account: account, password: password)
            return .success(account)
        }
    }

    /// The account with `email` (read as sign-up reads it) if `password` is its password.
    public func signIn(email: String, password: String) -> Result<Account, AccountError> {
        entries.withLock { entries in
            guard let entry = entries[EmailAddress.key(email)], entry.password == password else {
                return .failure(.wrongCredentials)
            }
            return .success(entry.account)
        }
    }
}
