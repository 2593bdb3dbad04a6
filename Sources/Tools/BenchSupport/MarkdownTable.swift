import Foundation

/// A Markdown table, printed with its columns padded so it also reads well in a terminal.
public struct MarkdownTable {
    public enum Alignment: Sendable { case left, right }

    public let columns: [(title: String, alignment: Alignment)]
    public private(set) var rows: [[String]] = []

    public init(_ columns: [(String, Alignment)]) {
        self.columns = columns.map { (title: $0.0, alignment: $0.1) }
    }

    public mutating func append(_ cells: [String]) {
        precondition(cells.count == columns.count, "a row needs \(columns.count) cells")
        rows.append(cells)
    }

    public mutating func append(_ cells: String...) {
        append(cells)
    }

    /// The table as Markdown lines.
    public var text: String {
        let widths = columns.indices.map { column in
            ([columns[column].title] + rows.map { $0[column] }).map(\.count).max()!
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.indices.map { column in
                let gap = String(repeating: " ", count: widths[column] - cells[column].count)
                return columns[column].alignment == .left ? cells[column] + gap : gap + cells[column]
            }
            return "| " + padded.joined(separator: " | ") + " |"
        }
        let rule = columns.indices.map { column in
            let dashes = String(repeating: "-", count: max(widths[column] - 1, 2))
            return columns[column].alignment == .left ? dashes + "-" : dashes + ":"
        }
        let header = [line(columns.map(\.title)), "| " + rule.joined(separator: " | ") + " |"]
        return (header + rows.map(line)).joined(separator: "\n")
    }
}

/// Number formatting for the tables.
public enum Format {
    /// Nanoseconds with three significant figures in a fitting unit: `41.2 µs`, `4.12 ms`.
    public static func time(nanoseconds: UInt64?) -> String {
        guard let nanoseconds else { return "–" }
        let seconds = Double(nanoseconds) / 1e9
        if seconds >= 1 { return significant(seconds) + " s" }
        if seconds >= 1e-3 { return significant(seconds * 1e3) + " ms" }
        if seconds >= 1e-6 { return significant(seconds * 1e6) + " µs" }
        return significant(seconds * 1e9) + " ns"
    }

    /// `value` with three significant figures, for values from 1 to 999.
    public static func significant(_ value: Double) -> String {
        let decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2
        return String(format: "%.\(decimals)f", value)
    }

    /// A count with thousands separators: `1,234,567`.
    public static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = value < 0 ? "-" : ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return grouped
    }

    /// A rate rounded to three significant figures, with separators: `41,300`.
    public static func rate(_ perSecond: Double) -> String {
        guard perSecond >= 1000 else { return String(format: perSecond >= 100 ? "%.0f" : "%.1f", perSecond) }
        let magnitude = pow(10, floor(log10(perSecond)) - 2)
        return count(Int((perSecond / magnitude).rounded() * magnitude))
    }

    /// A ratio: `2.15×`; a dash when either side is missing.
    public static func ratio(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        return String(format: "%.2f×", value)
    }

    /// Generator CPU over wall time: `0.91 s / 3.00 s (30 %)`.
    public static func cpu(_ cpuSeconds: Double, of wallSeconds: Double) -> String {
        String(format: "%.2f s / %.2f s (%.0f %%)", cpuSeconds, wallSeconds, cpuSeconds / wallSeconds * 100)
    }

    /// KiB with one decimal: `12.3 KiB`.
    public static func kibibytes(_ value: Double) -> String {
        String(format: "%.1f KiB", value)
    }
}

extension Format {
    /// A duration with three significant figures in a fitting unit: `412 µs`, `4.12 ms`.
    public static func time(_ duration: Duration) -> String {
        let components = duration.components
        let nanoseconds = Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
        return time(nanoseconds: UInt64(max(0, nanoseconds)))
    }

    /// A throughput: `85.3 MB/s`.
    public static func throughput(_ megabytesPerSecond: Double) -> String {
        String(format: "%.1f MB/s", megabytesPerSecond)
    }

    /// A size in megabytes (10⁶ bytes): `1.23 MB`.
    public static func megabytes(_ bytes: Int) -> String {
        String(format: "%.2f MB", Double(bytes) / 1_000_000)
    }

    /// `part / whole` as a percentage with enough decimals to stay non-zero: `0.0051 %`.
    public static func percent(_ part: Int, of whole: Int) -> String {
        let value = Double(part) / Double(whole) * 100
        let decimals = value >= 10 ? 0 : value >= 1 ? 1 : value >= 0.01 ? 2 : 4
        return String(format: "%.\(decimals)f %%", value)
    }

    /// A ratio: `2.15×`.
    public static func ratio(_ value: Double) -> String {
        String(format: "%.2f×", value)
    }
}
