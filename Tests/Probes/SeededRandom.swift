/// A repeatable random number generator for tests: Vigna's SplitMix64, so one seed
/// always gives one sequence and a failing run can be replayed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private static let golden: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var counter: UInt64

    public init(seed: UInt64) { counter = seed }

    public mutating func next() -> UInt64 {
        counter &+= Self.golden
        return Self.mix(counter)
    }

    /// SplitMix64's finaliser: two multiply-xorshift rounds and a last xorshift.
    private static func mix(_ value: UInt64) -> UInt64 {
        let first = (value ^ (value &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        let second = (first ^ (first &>> 27)) &* 0x94D0_49BB_1331_11EB
        return second ^ (second &>> 31)
    }
}
