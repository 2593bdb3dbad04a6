import Footlight
import FootlightJSON
import FootlightProbes
import FootlightTesting
import Testing

@testable import FootlightServer

/// The visitor cookie on pages, and the upgrade request reaching the app.
@Suite(.timeLimit(.minutes(1)))
struct VisitorTests {
    /// A stage showing what its session's request said.
    static let requestStage: StageFactory = { environment in
        let request = environment.request
        let stage = Stage(name: "request")
        stage.bind(Just(request.visitor?.rawValue), to: "visitor")
        stage.bind(Just(request.path), to: "path")
        stage.bind(Just(request.address), to: "address")
        stage.bind(Just(request.headers["user-agent"]), to: "agent")
        stage.bind(Just(request.headers["accept-language"]), to: "language")
        stage.bind(Just(request.cookies["theme"]), to: "theme")
        return [stage]
    }

    /// The `footlight_visitor=…` pair of a `Set-Cookie` value.
    static func pair(_ setCookie: String?) -> String? {
        setCookie?.split(separator: ";").first.map(String.init)
    }

    /// `text` with its last character changed (a hex digit to another).
    static func altered(_ text: String) -> String {
        String(text.dropLast()) + (text.last == "0" ? "1" : "0")
    }

    @Test("Cookie headers: pairs by name, the first of a repeat, quotes and blanks dropped, at most 64")
    func cookieHeader() {
        #expect(CookieHeader.values(nil).isEmpty)
        #expect(
            CookieHeader.values(#" a=1; b = "two" ;c=;=x; novalue; a=again;;d=e=f"#) == [
                "a": "1", "b": "two", "c": "", "d": "e=f",
            ])
        let many = (0..<100).map { "c\($0)=\($0)" }.joined(separator: "; ")
        #expect(CookieHeader.values(many).count == CookieHeader.maximumCookies)
    }

    @Test("A visitor cookie names its visitor; an altered one, another key's or a resume token names none")
    func signedCookies() throws {
        let key = [UInt8](repeating: 3, count: 32)
        let cookies = try VisitorCookies(key: key, secure: false)
        let setCookie = cookies.newCookie()
        #expect(setCookie.hasSuffix("; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax"))
        let value = try #require(Self.pair(setCookie)?.split(separator: "=", maxSplits: 1).last.map(String.init))
        let visitor = try #require(cookies.visitor(in: [VisitorCookies.name: value]))
        #expect(visitor.rawValue.count == 32 && value.contains(visitor.rawValue))
        #expect(cookies.visitor(in: [VisitorCookies.name: Self.altered(value)]) == nil)
        #expect(
            try VisitorCookies(key: [UInt8](repeating: 4, count: 32), secure: false).visitor(in: [
                VisitorCookies.name: value
            ]) == nil)
        let resumeToken = try SignedIDs(key: key).token(for: visitor.rawValue)
        #expect(cookies.visitor(in: [VisitorCookies.name: resumeToken]) == nil, "each purpose signs its own label")
        #expect(try VisitorCookies(key: key, secure: true).newCookie().hasSuffix("; SameSite=Lax; Secure"))
    }

    @Test("A page sets the cookie once, privately cached; a file or a forged cookie's page do as they should")
    func pagesSetTheCookie() throws {
        // The plain page's caching (a page with first content is never stored: FirstContentTests).
        let server = try TestServer.start(configure: { $0.firstContent.isEnabled = false }) { _ in
            [CounterScene.makeStage()]
        }
        defer { server.shutdown() }
        let first = try RawHTTP.get(port: server.port, path: "/")
        let setCookie = try #require(first.headers["set-cookie"])
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax") && !setCookie.contains("Secure"))
        #expect(first.headers["cache-control"] == "private, no-cache")
        let cookie = try #require(Self.pair(setCookie))
        let again = try RawHTTP.get(
            port: server.port, path: "/lots/7", extraHeaders: "Cookie: theme=dark; \(cookie)\r\n")
        #expect(again.status == 200)
        #expect(again.headers["set-cookie"] == nil, "a known visitor gets no new cookie")
        #expect(again.headers["cache-control"] == "no-cache")
        let forged = try RawHTTP.get(
            port: server.port, path: "/", extraHeaders: "Cookie: \(VisitorCookies.name)=v1.forged\r\n")
        #expect(Self.pair(forged.headers["set-cookie"]) != nil && Self.pair(forged.headers["set-cookie"]) != cookie)
        let script = try RawHTTP.get(port: server.port, path: "/app.js")
        #expect(script.headers["set-cookie"] == nil, "only pages name visitors")
    }

    @Test("The upgrade's visitor, cookies, headers and address reach the app; a forged cookie is no visitor")
    func requestReachesTheApp() throws {
        let server = try TestServer.start(stages: Self.requestStage)
        defer { server.shutdown() }
        let page = try RawHTTP.get(port: server.port, path: "/")
        let cookie = try #require(Self.pair(page.headers["set-cookie"]))
        let visitor = String(cookie.split(separator: ".")[1])

        func firstMount(_ headers: String) throws -> JSON? {
            let socket = try RawWebSocket(port: server.port)
            socket.write(RawWebSocket.handshake(port: server.port, extraHeaders: headers))
            try #require(socket.readStatus() == 101)
            socket.frame(opcode: 0x1, payload: Array(#"{"t":"join","v":1,"path":"/lots/7"}"#.utf8))
            while let (opcode, payload) = socket.readFrame() {
                guard opcode == 0x1, let message = try? JSON.parse(payload) else { continue }
                if message["t"] == "mount" { return message["doc"] }
            }
            return nil
        }

        let known = try firstMount(
            "Cookie: theme=dark; \(cookie)\r\nUser-Agent: VisitorTests/1\r\nAccept-Language: de-CH, en;q=0.5\r\n")
        #expect(known?["visitor"] == .string(visitor))
        #expect(known?["path"] == "/lots/7")
        #expect(known?["address"] == "127.0.0.1")
        #expect(known?["agent"] == "VisitorTests/1")
        #expect(known?["language"] == "de-CH, en;q=0.5")
        #expect(known?["theme"] == "dark")

        let forged = try firstMount("Cookie: \(Self.altered(cookie))\r\n")
        #expect(forged?["visitor"] == .null)
        let none = try firstMount("")
        #expect(none?["visitor"] == .null && none?["theme"] == .null)
    }
}
