import Footlight

/// The visitor cookie: a signed id (``SignedIDs`` for visitors) the server sets on the
/// pages it sends, `HttpOnly` and `SameSite=Lax` (`Secure` under TLS), and reads back
/// from the WebSocket's upgrade request. A cookie the server did not sign, or one
/// altered in any byte, names no visitor.
struct VisitorCookies: Sendable {
    /// The cookie's name.
    static let name = "footlight_visitor"
    /// How long a browser keeps it: a year.
    static let maximumAgeSeconds = 365 * 24 * 3600

    private let ids: SignedIDs
    /// Whether the server speaks TLS, so the cookie is sent back over https only.
    private let secure: Bool

    init(key: [UInt8]?, secure: Bool) throws(ServerError) {
        ids = try SignedIDs(key: key, purpose: .visitor)
        self.secure = secure
    }

    /// The visitor the cookies name, if this server signed the cookie.
    func visitor(in cookies: [String: String]) -> VisitorID? {
        cookies[Self.name].flatMap(ids.id(from:)).map(VisitorID.init(rawValue:))
    }

    /// A `Set-Cookie` value naming a new visitor.
    func newCookie() -> String {
        let value = ids.token(for: SignedIDs.newID())
        return "\(Self.name)=\(value); Path=/; Max-Age=\(Self.maximumAgeSeconds); HttpOnly; SameSite=Lax"
            + (secure ? "; Secure" : "")
    }
}
