import Crypto

/// Mints and checks signed ids: a random id and its HMAC-SHA256 under the server's key,
/// as `v1.<id>.<mac>` (hex), for one purpose (resume tokens naming sessions, visitor
/// cookies naming visitors). A text the server did not sign for that purpose, or one
/// altered in any byte, names nothing, so guessing or editing ids gets nowhere.
struct SignedIDs: Sendable {
    /// What the ids name; each purpose signs under its own label.
    enum Purpose: String, Sendable {
        case resume
        case visitor
        case upload
    }

    private let purpose: Purpose
    /// The key's bytes (`SymmetricKey` is not `Sendable`; one is made per use).
    private let keyBytes: [UInt8]
    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    /// Keys shorter than this are refused (HMAC-SHA256 wants at least 256 bits).
    static let minimumKeyBytes = 32

    /// Ids for `purpose` under `key`, or under a fresh random 256-bit key when it is nil
    /// (they then die with the process).
    init(key: [UInt8]?, purpose: Purpose = .resume) throws(ServerError) {
        self.purpose = purpose
        guard let key else {
            keyBytes = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
            return
        }
        guard key.count >= Self.minimumKeyBytes else {
            throw .configuration(
                "the resume token key has \(key.count) bytes; it needs at least \(Self.minimumKeyBytes)")
        }
        keyBytes = key
    }

    /// The signed text for `id` (a resume token, a visitor cookie's value).
    func token(for id: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: signed(id), using: key)
        return "\(Self.prefix)\(id).\(Self.hex(mac))"
    }

    /// The id `token` carries if the server signed it for this purpose, else nil. The
    /// MAC is checked in constant time (`isValidAuthenticationCode`), so a forger learns
    /// nothing from how long a refusal takes.
    func id(from token: String) -> String? {
        guard token.utf8.count == Self.tokenLength, token.hasPrefix(Self.prefix) else { return nil }
        let parts = token.utf8.dropFirst(Self.prefix.utf8.count).split(separator: UInt8(ascii: "."))
        guard parts.count == 2, parts[0].count == Self.idLength, let mac = Self.bytes(fromHex: parts[1]),
            mac.count == SHA256.byteCount
        else { return nil }
        let id = String(decoding: parts[0], as: UTF8.self)
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: signed(id), using: key) else {
            return nil
        }
        return id
    }

    private static let prefix = "v1."
    /// Ids are 128 random bits as 32 hex digits.
    static let idLength = 32
    private static let tokenLength = prefix.utf8.count + idLength + 1 + 2 * SHA256.byteCount

    /// What the MAC covers: a label (so the key signs nothing else by accident, and a
    /// resume token is no visitor cookie) and the id.
    private func signed(_ id: String) -> [UInt8] {
        Array("footlight \(purpose.rawValue) v1:\(id)".utf8)
    }

    /// A fresh id: 128 random bits as hex.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let words = (generator.next() as UInt64, generator.next() as UInt64)
        return hex(withUnsafeBytes(of: words) { Array($0) })
    }

    private static func hex(_ mac: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in mac {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func bytes(fromHex text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var high: UInt8?
        for character in text {
            let value: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }
}
