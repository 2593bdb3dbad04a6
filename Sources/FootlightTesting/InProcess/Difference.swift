import CustomDump
import FootlightJSON

/// The failure text of a ``SceneTester`` assertion: a structural diff of the expected
/// against the actual value, in swift-custom-dump's format (as TCA's `TestStore` prints
/// it), unchanged parts folded.
enum Difference {
    /// The diff of two JSON values, nil when they are equal.
    static func of(_ expected: JSON, _ actual: JSON) -> String? {
        guard expected != actual else { return nil }
        return diff(dumpable(expected), dumpable(actual), format: .default)
    }

    /// The diff of two lists of context commands, nil when they are equal.
    static func of(_ expected: [SceneCommand], _ actual: [SceneCommand]) -> String? {
        guard expected != actual else { return nil }
        return diff(expected, actual, format: .default)
    }

    /// `title`, then the diff indented under a legend of its two sides.
    static func message(_ title: String, _ difference: String?, first: String = "expected", second: String = "actual")
        -> String
    {
        guard let difference else { return title }
        let body = difference.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.isEmpty ? "" : "  \($0)"
        }
        return "\(title) (- \(first), + \(second)):\n\n" + body.joined(separator: "\n")
    }

    /// A dump of one value, for what was never asserted.
    static func dump(_ value: some Any) -> String {
        var text = ""
        customDump(value, to: &text)
        return text
    }

    /// JSON as plain values whose dump reads as JSON: objects as dictionaries (keys
    /// sorted), arrays, strings quoted, numbers and booleans bare, null as `null`.
    static func dumpable(_ json: JSON) -> Any {
        switch json {
        case .null: Null()
        case .bool(let value): value
        case .int(let value): value
        case .double(let value): value
        case .string(let value): value
        case .array(let elements): elements.map(dumpable)
        case .object(let members): Dictionary(uniqueKeysWithValues: members.map { ($0.key, dumpable($0.value)) })
        }
    }

    private struct Null: CustomDumpStringConvertible {
        var customDumpDescription: String { "null" }
    }
}
