/// Money as the kiosk shows and reads it: US dollars, "$1,234.00".
public enum MoneyFormat {
    /// The largest amount ``parse(_:)`` accepts: $10,000,000.00.
    public static let maximumCents = 1_000_000_000

    /// `cents` as "$1,234.00" ("-$5.00" below zero).
    public static func string(cents: Int) -> String {
        let magnitude = cents.magnitude
        let remainder = magnitude % 100
        return "\(cents < 0 ? "-" : "")$\(grouped(magnitude / 100)).\(remainder < 10 ? "0" : "")\(remainder)"
    }

    /// `value` with commas between groups of three digits: "1,234,567".
    static func grouped(_ value: UInt) -> String {
        let digits = String(value)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }

    /// Reads an amount the user typed: digits with an optional "$", thousands
    /// separators in the right places ("1,250"), and up to two decimals ("1250.5").
    /// Spaces around it are ignored.
    public static func parse(_ text: String) throws(MoneyParseError) -> Int {
        var body = Substring(text).trimmingSpaces
        if body.first == "$" { body = body.dropFirst().trimmingSpaces }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty else { throw .notAnAmount }
        let fraction = parts.count > 1 ? parts[1] : ""
        guard fraction.allSatisfy(\.isASCIIDigit) else { throw .notAnAmount }
        guard fraction.count <= 2 else { throw .tooManyDecimals }
        let digits = try wholeDigits(whole)
        guard digits.count <= 8 else { throw .tooLarge }
        guard let dollars = Int(digits), let cents = Int(fraction.padding(toTwo: "0")) else { throw .notAnAmount }
        let total = dollars * 100 + cents
        guard total <= maximumCents else { throw .tooLarge }
        return total
    }

    /// The digits of the whole part: plain, or grouped by commas in threes.
    private static func wholeDigits(_ whole: Substring) throws(MoneyParseError) -> String {
        let groups = whole.split(separator: ",", omittingEmptySubsequences: false)
        guard groups.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else { throw .notAnAmount }
        if groups.count > 1 {
            guard groups[0].count <= 3, groups.dropFirst().allSatisfy({ $0.count == 3 }) else { throw .notAnAmount }
        }
        let digits = String(groups.joined()).drop { $0 == "0" }
        return digits.isEmpty ? "0" : String(digits)
    }
}

/// Why typed text is not an amount of money.
public enum MoneyParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not digits (with optional "$", commas and decimals), or empty.
    case notAnAmount
    /// More than two digits after the decimal point.
    case tooManyDecimals
    /// Above ``MoneyFormat/maximumCents``.
    case tooLarge

    /// A message for the user.
    public var description: String {
        switch self {
        case .notAnAmount: "Enter an amount in dollars, like 1,250 or 1,250.00."
        case .tooManyDecimals: "Use at most two decimal places (cents)."
        case .tooLarge: "Enter at most \(MoneyFormat.string(cents: MoneyFormat.maximumCents))."
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return self[first...last]
    }

    fileprivate func padding(toTwo pad: Character) -> String {
        String(self) + String(repeating: pad, count: Swift.max(0, 2 - count))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
