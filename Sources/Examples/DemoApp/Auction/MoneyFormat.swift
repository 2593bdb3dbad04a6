import Foundation

/// Money as the kiosk shows and reads it: US dollars, written as the visitor's
/// language writes them ("$1,234.00", "1.234,00 $"; Foundation's currency format).
public enum MoneyFormat {
    /// The largest amount ``parse(_:in:)`` accepts: $10,000,000.00.
    public static let maximumCents = 1_000_000_000

    /// `cents` as `language` writes dollars: "$1,234.00", "-$5.00", "1.234,00 $".
    public static func string(cents: Int, in language: KioskLanguage = .fallback) -> String {
        style(language).format(Decimal(cents) / 100)
    }

    /// `value` with `language`'s separators between groups of three digits: "1,234,567", "1.234.567".
    public static func grouped(_ value: Int, in language: KioskLanguage = .fallback) -> String {
        IntegerFormatStyle<Int>(locale: language.locale).format(value)
    }

    private static let styles = KioskLanguage.allCases.map {
        Decimal.FormatStyle.Currency(code: "USD", locale: $0.locale)
    }

    private static func style(_ language: KioskLanguage) -> Decimal.FormatStyle.Currency {
        switch language {  // no `allCases` array per call: this runs for every amount shown
        case .english: styles[0]
        case .german: styles[1]
        }
    }

    /// Reads an amount the user typed as `language` writes numbers: digits with an
    /// optional "$" before or after, thousands separators in the right places ("1,250";
    /// "1.250" in German), and up to two decimals ("1250.5"; "1250,5"). Spaces around
    /// it are ignored.
    ///
    /// The other language's decimal point is read too when it cannot be a thousands
    /// separator: a lone "." or "," with one or two digits after it ("1250.50" in a
    /// German session, as a phone's keypad for another region types it; "12,50" in an
    /// English one). With three digits after it, it separates thousands, as the
    /// language writes them.
    public static func parse(_ text: String, in language: KioskLanguage = .fallback) throws(MoneyParseError) -> Int {
        var body = Substring(text).trimmingSpaces
        if body.first == "$" {
            body = body.dropFirst().trimmingSpaces
        } else if body.last == "$" {
            body = body.dropLast().trimmingSpaces
        }
        var (decimal, grouping) = (language.decimalSeparator, language.groupingSeparator)
        if !body.contains(decimal), body.count(where: { $0 == grouping }) == 1,
            let lone = body.lastIndex(of: grouping), (1...2).contains(body[body.index(after: lone)...].count)
        {
            swap(&decimal, &grouping)
        }
        let parts = body.split(separator: decimal, maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty else { throw .notAnAmount }
        let fraction = parts.count > 1 ? parts[1] : ""
        guard fraction.allSatisfy(\.isASCIIDigit) else { throw .notAnAmount }
        guard fraction.count <= 2 else { throw .tooManyDecimals }
        let digits = try wholeDigits(whole, grouping: grouping)
        guard digits.count <= 8 else { throw .tooLarge }
        guard let dollars = Int(digits), let cents = Int(fraction.padding(toTwo: "0")) else { throw .notAnAmount }
        let total = dollars * 100 + cents
        guard total <= maximumCents else { throw .tooLarge }
        return total
    }

    /// The digits of the whole part: plain, or grouped in threes by `grouping`.
    private static func wholeDigits(_ whole: Substring, grouping: Character) throws(MoneyParseError) -> String {
        let groups = whole.split(separator: grouping, omittingEmptySubsequences: false)
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
    /// Not digits (with optional "$", separators and decimals), or empty.
    case notAnAmount
    /// More than two digits after the decimal point.
    case tooManyDecimals
    /// Above ``MoneyFormat/maximumCents``.
    case tooLarge

    /// A message for the user in `language`.
    public func message(in language: KioskLanguage) -> String {
        let strings = language.strings
        return switch self {
        case .notAnAmount: strings.notAnAmount
        case .tooManyDecimals: strings.tooManyDecimals
        case .tooLarge: strings.amountTooLarge(MoneyFormat.string(cents: MoneyFormat.maximumCents, in: language))
        }
    }

    /// The message in English.
    public var description: String { message(in: .fallback) }
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
