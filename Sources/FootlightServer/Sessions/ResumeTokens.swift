import Crypto

/// Mints and checks resume tokens: a session id and its HMAC-SHA256 under the
/// server's key, as `v1.<id>.<mac>` (hex). A token the server did not sign, or one
/// altered in any byte, names no session, so guessing or editing ids gets nowhere.
struct ResumeTokens: Sendable {
    /// The key's bytes (`SymmetricKey` is not `Sendable`; one is made per use).
    private let keyBytes: [UInt8]
    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    /// Keys shorter than this are refused (HMAC-SHA256 wants at least 256 bits).
    static let minimumKeyBytes = 32

    /// Tokens under `key`, or under a fresh random 256-bit key when it is nil (tokens
    /// then die with the process, as the sessions they name do).
    init(key: [UInt8]?) throws(ServerError) {
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

    /// The token for `sessionID`.
    func token(for sessionID: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Self.signed(sessionID), using: key)
        return "\(Self.prefix)\(sessionID).\(Self.hex(mac))"
    }

    /// The session id `token` carries if the server signed it, else nil. The MAC is
    /// checked in constant time (`isValidAuthenticationCode`), so a forger learns
    /// nothing from how long a refusal takes.
    func sessionID(from token: String) -> String? {
        guard token.utf8.count == Self.tokenLength, token.hasPrefix(Self.prefix) else { return nil }
        let parts = token.utf8.dropFirst(Self.prefix.utf8.count).split(separator: UInt8(ascii: "."))
        guard parts.count == 2, parts[0].count == Self.idLength, let mac = Self.bytes(fromHex: parts[1]),
            mac.count == SHA256.byteCount
        else { return nil }
        let id = String(decoding: parts[0], as: UTF8.self)
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Self.signed(id), using: key) else {
            return nil
        }
        return id
    }

    private static let prefix = "v1."
    /// Session ids are 128 random bits as 32 hex digits.
    static let idLength = 32
    private static let tokenLength = prefix.utf8.count + idLength + 1 + 2 * SHA256.byteCount

    /// What the MAC covers: a label (so the key signs nothing else by accident) and the id.
    private static func signed(_ sessionID: String) -> [UInt8] {
        Array("footlight resume v1:\(sessionID)".utf8)
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
