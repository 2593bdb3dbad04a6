import Crypto
import Foundation
import _CryptoExtras

/// A password as the kiosk keeps it: scrypt (swift-crypto's `KDF.Scrypt`, BoringSSL)
/// with a random salt, the parameters stored beside the hash so that a later cost still
/// checks older hashes. Checked in constant time.
public struct PasswordHash: Equatable {
    /// scrypt's cost parameters: N (`rounds`, a power of two), r and p. Memory per hash
    /// is 128 × r × N bytes.
    public struct Cost: Equatable, Sendable {
        public var rounds: Int
        public var blockSize: Int
        public var parallelism: Int

        public init(rounds: Int, blockSize: Int, parallelism: Int) {
            self.rounds = rounds
            self.blockSize = blockSize
            self.parallelism = parallelism
        }

        /// For the live kiosk: N = 2^15, r = 8, p = 1 (32 MiB, tens of milliseconds),
        /// within OWASP's recommended scrypt settings.
        public static let standard = Cost(rounds: 1 << 15, blockSize: 8, parallelism: 1)
        /// The same algorithm, cheap: for tests and throwaway accounts (the examples page's,
        /// which vanish with their session), never for passwords worth keeping.
        public static let minimal = Cost(rounds: 16, blockSize: 8, parallelism: 1)
    }

    public let cost: Cost
    let salt: [UInt8]
    let key: SymmetricKey

    static let keyBytes = 32
    static let saltBytes = 16

    /// Hashes `password` with a new random salt.
    public init(hashing password: String, cost: Cost) throws {
        var salt = [UInt8](repeating: 0, count: Self.saltBytes)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = generator.next() }
        try self.init(password: password, salt: salt, cost: cost)
    }

    private init(password: String, salt: [UInt8], cost: Cost) throws {
        self.cost = cost
        self.salt = salt
        key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: Self.keyBytes, rounds: cost.rounds,
            blockSize: cost.blockSize, parallelism: cost.parallelism)
    }

    /// Whether `password` is the one hashed, compared in constant time.
    public func matches(_ password: String) -> Bool {
        guard let candidate = try? PasswordHash(password: password, salt: salt, cost: cost) else { return false }
        return candidate.key == key  // SymmetricKey's == is constant-time
    }

    /// `scrypt$N$r$p$salt$hash`, salt and hash in base64: what the database stores.
    public var encoded: String {
        let hash = key.withUnsafeBytes { Data($0).base64EncodedString() }
        return "scrypt$\(cost.rounds)$\(cost.blockSize)$\(cost.parallelism)$\(Data(salt).base64EncodedString())$\(hash)"
    }

    /// Reads ``encoded``; nil for anything else.
    public init?(encoded: String) {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "scrypt", let rounds = Int(parts[1]), let blockSize = Int(parts[2]),
            let parallelism = Int(parts[3]), rounds > 1, rounds.nonzeroBitCount == 1, (1...64).contains(blockSize),
            (1...16).contains(parallelism), let salt = Data(base64Encoded: String(parts[4])),
            let hash = Data(base64Encoded: String(parts[5])), hash.count == Self.keyBytes
        else { return nil }
        cost = Cost(rounds: rounds, blockSize: blockSize, parallelism: parallelism)
        self.salt = Array(salt)
        key = SymmetricKey(data: hash)
    }
}
