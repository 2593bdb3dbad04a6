/// Round-trip times in a log-linear histogram: exact below 32 ns, then 32 buckets per
/// power of two (at most 3 % error), so memory stays fixed however many are recorded.
struct LatencyHistogram {
    private static let subBuckets = 32
    private var counts = [UInt64](repeating: 0, count: 60 * subBuckets)
    /// Values recorded.
    private(set) var total: UInt64 = 0
    /// The largest value recorded, in nanoseconds.
    private(set) var maximum: UInt64 = 0

    /// Records one round trip of `nanoseconds`.
    mutating func record(_ nanoseconds: UInt64) {
        counts[Self.index(of: nanoseconds)] += 1
        total += 1
        maximum = max(maximum, nanoseconds)
    }

    /// The value at quantile `q` (0.5 for the median), in nanoseconds; nil when empty.
    func quantile(_ q: Double) -> UInt64? {
        guard total > 0 else { return nil }
        let rank = max(1, UInt64((q * Double(total)).rounded(.up)))
        var seen: UInt64 = 0
        for (index, count) in counts.enumerated() where count > 0 {
            seen += count
            if seen >= rank { return min(Self.midpoint(of: index), maximum) }
        }
        return maximum
    }

    /// Values below 32 get their own bucket; above, 32 buckets share each power of two.
    private static func index(of value: UInt64) -> Int {
        guard value >= UInt64(subBuckets) else { return Int(value) }
        let shift = (63 - value.leadingZeroBitCount) - 5
        return shift * subBuckets + Int(value >> UInt64(shift))
    }

    private static func midpoint(of index: Int) -> UInt64 {
        guard index >= subBuckets else { return UInt64(index) }
        let shift = index / subBuckets - 1
        let sub = UInt64(index - shift * subBuckets)
        let low = sub << UInt64(shift)
        return low + ((1 << UInt64(shift)) >> 1)
    }
}
