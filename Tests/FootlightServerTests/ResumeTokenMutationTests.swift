import FootlightTesting
import Testing

@testable import FootlightServer

/// RELIABILITY.md T4: 2,000 seeded mutants of real tokens through the verifier; none
/// may name a session. (The live side, forged tokens over a socket, is in
/// ResumeTokenTests.)
@Suite struct ResumeTokenMutationTests {
    static let idA = "0123456789abcdef0123456789abcdef"
    static let idB = "fedcba9876543210fedcba9876543210"

    func mutate(_ token: [UInt8], other: [UInt8], foreign: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = token
        let index = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<9, using: &random) {
        case 0: bytes[index] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))  // one bit flipped
        case 1: bytes = Array(bytes[..<index])  // truncated
        case 2: bytes.insert(UInt8.random(in: 0x21...0x7E, using: &random), at: index)  // a byte added
        case 3: bytes.remove(at: index)  // a byte removed
        case 4: bytes[index] = UInt8.random(in: 0...255, using: &random)  // a byte replaced
        case 5: bytes = Array(other.prefix(35)) + Array(token.dropFirst(35))  // B's id, A's MAC
        case 6: bytes = Array(token.prefix(35)) + Array(other.dropFirst(35))  // A's id, B's MAC
        case 7: bytes = foreign  // signed under another key
        default:  // another version, or upper-case hex
            bytes =
                index.isMultiple(of: 2)
                ? Array("v2.".utf8) + bytes.dropFirst(3) : bytes.map { $0 >= 0x61 && $0 <= 0x66 ? $0 - 0x20 : $0 }
        }
        return bytes
    }

    @Test("2,000 mutants of real tokens (bit flips, truncations, swapped MACs, other keys, versions) name no session")
    func mutants() throws {
        let tokens = try SignedIDs(key: Array(repeating: 7, count: 32))
        let otherKey = try SignedIDs(key: Array(repeating: 8, count: 32))
        let tokenA = Array(tokens.token(for: Self.idA).utf8)
        let tokenB = Array(tokens.token(for: Self.idB).utf8)
        let foreign = Array(otherKey.token(for: Self.idA).utf8)
        #expect(tokens.id(from: String(decoding: tokenA, as: UTF8.self)) == Self.idA)
        #expect(tokens.id(from: String(decoding: tokenB, as: UTF8.self)) == Self.idB)
        var random = SeededGenerator(seed: 4)
        var tried = 0
        var accepted: [String] = []
        while tried < 2000 {
            let mutant = mutate(tokenA, other: tokenB, foreign: foreign, using: &random)
            guard mutant != tokenA else { continue }  // a flip that restored the byte
            tried += 1
            let text = String(decoding: mutant, as: UTF8.self)
            if let id = tokens.id(from: text) { accepted.append("\(text) → \(id)") }
        }
        #expect(accepted.isEmpty, "accepted mutants: \(accepted.prefix(5))")
    }
}
