/// Email addresses as the kiosk checks, stores and compares them: sign-up and sign-in
/// read an address the same way.
public enum EmailAddress {
    /// The most characters an address may have (RFC 5321's limit on a path).
    public static let maximumLength = 254

    /// `text` without the white space around it (any Unicode white space, such as the
    /// no-break space that comes with an address copied from a web page) and with its
    /// domain in lower case: what sign-up stores and sign-in looks up.
    public static func normalized(_ text: String) -> String {
        let trimmed = text.trimmingWhitespace
        guard let at = trimmed.lastIndex(of: "@") else { return trimmed }
        return String(trimmed[..<at]) + trimmed[at...].lowercased()
    }

    /// The directory's key: the normalized address in lower case (the kiosk treats the
    /// part before the @ case-insensitively too, as most mail providers do).
    static func key(_ text: String) -> String {
        normalized(text).lowercased()
    }
}
