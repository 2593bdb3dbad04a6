import Footlight
import Foundation
import GRDB
import Logging

/// Every account of the running app, shared by all sessions (thread-safe), kept in the
/// kiosk's database: an account survives a restart. Passwords are kept as scrypt
/// hashes (``PasswordHash``) and checked in constant time. Which account each visitor
/// (a browser, by its signed cookie) is signed in to is kept too, so a sign-in survives
/// a reload, a new tab and a restart.
///
/// Signing up and in hash a password, which takes tens of milliseconds by design:
/// call them off a session's loop (``SessionAccounts`` does, given a ``BlockingWork``).
public final class AccountDirectory: Sendable {
    private let database: KioskDatabase
    private let cost: PasswordHash.Cost
    private let logger: Logger
    /// At most this many accounts; sign-ups beyond it are refused (no unbounded growth).
    public let capacity: Int
    /// At most this many visitors' sign-ins are remembered; the oldest go first.
    public var signInCapacity: Int { capacity * 4 }

    /// The accounts in `database` (a new one in memory by default), taking at most
    /// `capacity` in all, hashing new passwords at `cost`. The `seeded` accounts are
    /// added with their passwords when the database has no account with their address.
    public init(
        database: KioskDatabase = KioskDatabase(),
        seeded: [(Account, password: String)] = AccountDirectory.demoAccounts,
        capacity: Int = 10_000, cost: PasswordHash.Cost = .standard,
        logger: Logger = Logger(label: "footlight.accounts")
    ) {
        self.database = database
        self.cost = cost
        self.capacity = capacity
        self.logger = logger
        for (account, password) in seeded where (try? self.entry(EmailAddress.key(account.email))) == nil {
            _ = try? insert(account, password: password)
        }
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
        guard email.count <= EmailAddress.maximumLength else { return .failure(AccountError(.addressTooLong)) }
        guard password.count <= Self.maximumPasswordLength else { return .failure(AccountError(.passwordTooLong)) }
        let account = Account(signingUpWith: email)
        do {
            return try insert(account, password: password)
        } catch {
            logger.error("a sign-up could not be recorded in \(database.location): \(error)")
            return .failure(.unavailable)
        }
    }

    /// The account with `email` (read as sign-up reads it) if `password` is its password.
    public func signIn(email: String, password: String) -> Result<Account, AccountError> {
        guard password.count <= Self.maximumPasswordLength else { return .failure(.wrongCredentials) }
        let found: (Account, PasswordHash?)?
        do {
            found = try entry(EmailAddress.key(email))
        } catch {
            logger.error("a sign-in could not read \(database.location): \(error)")
            return .failure(.unavailable)
        }
        guard let (account, hash) = found, let hash, hash.matches(password) else {
            return .failure(.wrongCredentials)
        }
        return .success(account)
    }

    // MARK: Visitors

    /// The account `visitor` is signed in to, nil when they never signed in or signed out.
    public func account(signedInBy visitor: VisitorID) -> Account? {
        do {
            return try database.writer.read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT account.email, account.name, account.website FROM signIn
                        JOIN account ON account.key = signIn.accountKey WHERE signIn.visitor = ?
                        """, arguments: [visitor.rawValue]
                ).map { Account(email: $0["email"], name: $0["name"], website: $0["website"]) }
            }
        } catch {
            logger.error("a visitor's sign-in could not be read from \(database.location): \(error)")
            return nil
        }
    }

    /// Remembers that `visitor` is signed in to `account` (an account of this directory).
    public func remember(_ account: Account, signedInBy visitor: VisitorID) {
        let key = EmailAddress.key(account.email)
        let keep = signInCapacity
        database.writeOrLog("a visitor's sign-in", to: logger) { db in
            try db.execute(
                sql: """
                    INSERT INTO signIn (visitor, accountKey, signedInAt) VALUES (?, ?, ?)
                    ON CONFLICT(visitor) DO UPDATE SET accountKey = excluded.accountKey, signedInAt = excluded.signedInAt
                    """, arguments: [visitor.rawValue, key, Date().timeIntervalSince1970])
            try KioskDatabase.keepNewest(keep, of: "signIn", by: "signedInAt", in: db)
        }
    }

    /// Forgets `visitor`'s sign-in: they signed out.
    public func forget(_ visitor: VisitorID) {
        database.writeOrLog("a visitor's sign-out", to: logger) { db in
            try db.execute(sql: "DELETE FROM signIn WHERE visitor = ?", arguments: [visitor.rawValue])
        }
    }

    /// How many accounts there are.
    public var count: Int {
        (try? database.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM account") }) ?? 0
    }

    // MARK: Database

    /// The account and its password hash (nil if the stored text is not one we read).
    private func entry(_ key: String) throws -> (Account, PasswordHash?)? {
        try database.writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT email, name, website, passwordHash FROM account WHERE key = ?", arguments: [key]
            ).map { row in
                (
                    Account(email: row["email"], name: row["name"], website: row["website"]),
                    PasswordHash(encoded: row["passwordHash"])
                )
            }
        }
    }

    /// Adds `account` unless its address is taken or the directory is full. The password
    /// is hashed before the write, so the slow part holds no lock.
    private func insert(_ account: Account, password: String) throws -> Result<Account, AccountError> {
        let hash = try PasswordHash(hashing: password, cost: cost).encoded
        let key = EmailAddress.key(account.email)
        let capacity = self.capacity
        return try database.writer.write { db -> Result<Account, AccountError> in
            guard try Int.fetchOne(db, sql: "SELECT 1 FROM account WHERE key = ?", arguments: [key]) == nil else {
                return .failure(.taken)
            }
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM account") ?? 0 < capacity else {
                return .failure(.full)
            }
            try db.execute(
                sql: "INSERT INTO account (key, email, name, website, passwordHash) VALUES (?, ?, ?, ?, ?)",
                arguments: [key, account.email, account.name, account.website, hash])
            return .success(account)
        }
    }
}
