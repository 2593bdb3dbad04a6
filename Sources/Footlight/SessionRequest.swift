/// Who opened a session and from where, as the server saw the page's WebSocket request:
/// the app reads it from ``SessionEnvironment/request`` (`context.environment.request`)
/// when its entry runs. The origin policy has already let the request through.
public struct SessionRequest: Sendable, Equatable {
    /// The page's path the session started at, e.g. "/lots/7".
    public var path: String
    /// The visitor the server's signed cookie names; nil when the request carried none,
    /// or one the server did not sign (forged or altered).
    public var visitor: VisitorID?
    /// The request's cookies by name (the first of a repeated name).
    public var cookies: [String: String]
    /// Request headers by lowercase name: `user-agent`, `accept-language`, `host`,
    /// `origin`, `x-forwarded-for` when sent.
    public var headers: [String: String]
    /// The client's address as the server's socket sees it (a proxy's, behind one).
    public var address: String?

    public init(
        path: String = "/", visitor: VisitorID? = nil, cookies: [String: String] = [:],
        headers: [String: String] = [:], address: String? = nil
    ) {
        self.path = path
        self.visitor = visitor
        self.cookies = cookies
        self.headers = headers
        self.address = address
    }
}

/// A visitor: one browser, named by a signed, `HttpOnly` cookie the server sets on its
/// pages. The same in every tab and across reloads; what a visitor owns (a sign-in)
/// belongs to it rather than to one session.
public struct VisitorID: Hashable, Sendable, CustomStringConvertible {
    /// 128 random bits as 32 hex digits.
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}
