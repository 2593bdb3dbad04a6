// Appending to a message's bytes without making a `String` first: the literal framing
// and the integers of every patch the server writes.

extension Array where Element == UInt8 {
    /// Appends the UTF-8 bytes of `literal`.
    package mutating func append(literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends `number` in decimal, the same bytes as `String(number)` (and C's `%lld`).
    package mutating func append(decimal number: Int64) {
        if number < 0 { append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        // 20 digits hold UInt64.max; they are made from the last.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
