import Foundation

/// A Markdown table, printed with its columns padded so it also reads well in a terminal.
struct MarkdownTable {
    enum Alignment { case left, right }

    let columns: [(title: String, alignment: Alignment)]
    private(set) var rows: [[String]] = []

    init(_ columns: [(String, Alignment)]) {
        self.columns = columns.map { (title: $0.0, alignment: $0.1) }
    }

    mutating func append(_ cells: [String]) {
        precondition(cells.count == columns.count, "a row needs \(columns.count) cells")
        rows.append(cells)
    }

    /// The table as Markdown lines.
    var text: String {
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
enum Format {
    /// Nanoseconds with three significant figures in a fitting unit: `41.2 µs`, `4.12 ms`.
    static func time(nanoseconds: UInt64?) -> String {
        guard let nanoseconds else { return "–" }
        let seconds = Double(nanoseconds) / 1e9
        if seconds >= 1 { return significant(seconds) + " s" }
        if seconds >= 1e-3 { return significant(seconds * 1e3) + " ms" }
        if seconds >= 1e-6 { return significant(seconds * 1e6) + " µs" }
        return significant(seconds * 1e9) + " ns"
    }

    /// `value` with three significant figures, for values from 1 to 999.
    static func significant(_ value: Double) -> String {
        let decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2
        return String(format: "%.\(decimals)f", value)
    }

    /// A count with thousands separators: `1,234,567`.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = value < 0 ? "-" : ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return grouped
    }

    /// A rate rounded to three significant figures, with separators: `41,300`.
    static func rate(_ perSecond: Double) -> String {
        guard perSecond >= 1000 else { return String(format: perSecond >= 100 ? "%.0f" : "%.1f", perSecond) }
        let magnitude = pow(10, floor(log10(perSecond)) - 2)
        return count(Int((perSecond / magnitude).rounded() * magnitude))
    }

    /// A ratio: `2.15×`; a dash when either side is missing.
    static func ratio(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        return String(format: "%.2f×", value)
    }

    /// Generator CPU over wall time: `0.91 s / 3.00 s (30 %)`.
    static func cpu(_ cpuSeconds: Double, of wallSeconds: Double) -> String {
        String(format: "%.2f s / %.2f s (%.0f %%)", cpuSeconds, wallSeconds, cpuSeconds / wallSeconds * 100)
    }

    /// KiB with one decimal: `12.3 KiB`.
    static func kibibytes(_ value: Double) -> String {
        String(format: "%.1f KiB", value)
    }
}
