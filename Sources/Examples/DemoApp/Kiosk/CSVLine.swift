import Foundation

/// One line of CSV (RFC 4180): fields separated by commas, a field with a comma, a
/// double quote or a line break in double quotes (its quotes doubled), CRLF at the end.
public enum CSVLine {
    public static func make(_ fields: [String]) -> String {
        fields.map(quoted).joined(separator: ",") + "\r\n"
    }

    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
