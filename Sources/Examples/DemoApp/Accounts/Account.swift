/// A signed-in user, as the app shows them.
public struct Account: Equatable, Sendable {
    /// The sign-in address; also the account's id (bids are placed under it).
    public let email: String
    /// The name shown on the page, e.g. "Ada".
    public let name: String
    /// The user's website, e.g. "https://example.com/".
    public let website: String

    public init(email: String, name: String, website: String) {
        self.email = email
        self.name = name
        self.website = website
    }

    /// The account a new sign-up gets: the name from the address's local part, without
    /// a "+tag" and words of digits only ("ada.l+bids@…" → "Ada L"), the website from
    /// its domain.
    public init(signingUpWith email: String) {
        let parts = email.split(separator: "@", maxSplits: 1)
        let local = parts.first.map { String($0.prefix { $0 != "+" }) } ?? email
        let words = local.split(whereSeparator: { ".-_".contains($0) })
            .filter { !$0.allSatisfy(\.isNumber) }
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }
        self.init(
            email: email, name: words.isEmpty ? local : words.joined(separator: " "),
            website: parts.count == 2 ? "https://\(parts[1].lowercased())/" : "https://example.com/")
    }
}
