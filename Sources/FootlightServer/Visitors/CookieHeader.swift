/// Reads a `Cookie` request header (RFC 6265 §5.4): `name=value` pairs separated by
/// `;`. A pair without `=` or with an empty name is skipped; the first of a repeated
/// name wins; a value in double quotes loses them. At most ``maximumCookies`` are read.
enum CookieHeader {
    static let maximumCookies = 64

    static func values(_ header: String?) -> [String: String] {
        guard let header else { return [:] }
        var cookies: [String: String] = [:]
        for pair in header.split(separator: ";", omittingEmptySubsequences: true).prefix(maximumCookies) {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = pair[..<equals].trimmingHeaderSpaces()
            var value = pair[pair.index(after: equals)...].trimmingHeaderSpaces()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            guard !name.isEmpty, cookies[String(name)] == nil else { continue }
            cookies[String(name)] = String(value)
        }
        return cookies
    }
}
