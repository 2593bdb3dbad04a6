import FootlightJSON
import FootlightServer
import FootlightTesting
import Testing

/// HTTP routes over real sockets: matching, parameters, query and headers, and the
/// clear 4xx every bad request gets.
@Suite(.timeLimit(.minutes(1)))
struct RouteTests {
    private func server(configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> Server {
        var routes = Routes()
        routes.get("/items/{id}", options: RouteOptions(headers: ["x-signature"])) { try RouteTestSupport.echo($0) }
        routes.get("/items/{id}/parts/{part}") { try RouteTestSupport.echo($0) }
        routes.post("/items/{id}", options: RouteOptions(maximumBodyBytes: 1000)) { try RouteTestSupport.echo($0) }
        routes.post("/hooks/pay", options: RouteOptions(allowsCrossOrigin: true)) { try RouteTestSupport.echo($0) }
        routes.get("/missing/{id}") { request in throw HTTPError.notFound("no item \(request.parameters["id"]!)") }
        return try RouteTestSupport.start(routes, configure: configure)
    }

    @Test("A route answers its method and path with the path's parameters, the query and the headers")
    func matching() async throws {
        let server = try server()
        defer { server.shutdown() }
        let response = try await HTTPTestClient.send(
            port: server.port, "GET", "/items/a%20b/parts/7?x=1&y=two+words&z=%C3%A9&flag",
            headers: [("Accept-Language", "de"), ("X-Signature", "sha256=abc")])
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.headers["x-content-type-options"] == "nosniff")
        let json = try JSON.parse(response.body)
        #expect(json["method"] == "GET" && json["path"] == "/items/a b/parts/7")
        #expect(json["parameters"] == ["id": "a b", "part": "7"])
        #expect(json["query"] == [["x", "1"], ["y", "two words"], ["z", "é"], ["flag", ""]])
        #expect(json["language"] == "de")
        #expect(json["signature"] == .null, "not a header this route reads")
        let other = try JSON.parse(
            try await HTTPTestClient.send(port: server.port, "GET", "/items/9/", headers: [("X-Signature", "s")]).body)
        #expect(other["parameters"] == ["id": "9"] && other["signature"] == "s")
    }

    @Test("HEAD runs the GET route and gets its head only; another method gets 405 with Allow")
    func methods() async throws {
        let server = try server()
        defer { server.shutdown() }
        let head = try await HTTPTestClient.send(port: server.port, "HEAD", "/items/1")
        #expect(head.status == 200 && head.body.isEmpty && Int(head.headers["content-length"] ?? "") ?? 0 > 0)
        let put = try await HTTPTestClient.send(
            port: server.port, "PUT", "/items/1", headers: [RouteTestSupport.ownOrigin(server)], body: [1])
        #expect(put.status == 405)
        #expect(put.headers["allow"] == "GET, HEAD, POST")
        let delete = try await HTTPTestClient.send(port: server.port, "DELETE", "/items/1/parts/2")
        #expect(delete.status == 405 && delete.headers["allow"] == "GET, HEAD")
    }

    @Test("A path no route matches is the public folder's; a handler's HTTPError is its status and message")
    func precedence() async throws {
        let server = try server()
        defer { server.shutdown() }
        let page = try await HTTPTestClient.send(port: server.port, "GET", "/index.html")
        #expect(page.status == 200 && page.text.contains("test page"))
        #expect(try await HTTPTestClient.send(port: server.port, "GET", "/items/1/other.txt").status == 404)
        let missing = try await HTTPTestClient.send(port: server.port, "GET", "/missing/42")
        #expect(missing.status == 404 && missing.text == "404 no item 42\n")
    }

    @Test("A body up to the route's limit is read whole; a larger one gets 413 unread, none at all 411")
    func bodies() async throws {
        let server = try server()
        defer { server.shutdown() }
        let origin = RouteTestSupport.ownOrigin(server)
        let small = try await HTTPTestClient.send(
            port: server.port, "POST", "/items/3", headers: [origin], body: [UInt8](repeating: 7, count: 1000))
        #expect(small.status == 200)
        #expect(try JSON.parse(small.body)["body"] == 1000)
        let large = try await HTTPTestClient.send(
            port: server.port, "POST", "/items/3", headers: [origin], body: [UInt8](repeating: 7, count: 1001))
        #expect(large.status == 413 && large.text.contains("1000"))
        #expect(large.headers["connection"] == "close")
        let unsized = try await HTTPTestClient.exchange(
            port: server.port,
            request: Array(
                "POST /items/3 HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: \(origin.1)\r\n\r\n".utf8))
        #expect(unsized.status == 411)
        let chunked = try await HTTPTestClient.send(
            port: server.port, "POST", "/items/3", headers: [origin, ("Transfer-Encoding", "chunked")])
        #expect(chunked.status == 411)
        let empty = try await HTTPTestClient.send(port: server.port, "POST", "/items/3", headers: [origin], body: [])
        let emptyBody = try JSON.parse(empty.body)
        #expect(empty.status == 200 && emptyBody["body"] == 0)
    }

    @Test("A client that expects 100 Continue gets it before it sends the body")
    func expectContinue() async throws {
        let server = try server()
        defer { server.shutdown() }
        let origin = "http://127.0.0.1:\(server.port)"
        let (interim, final) = try await offThePool { () throws -> (String, String) in
            let socket = try HTTPTestSocket(port: server.port, timeout: .seconds(5))
            try socket.write(
                Array(
                    ("POST /items/5 HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: \(origin)\r\n"
                        + "Content-Length: 3\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n").utf8))
            let interim = String(decoding: socket.read(), as: UTF8.self)
            try socket.write([1, 2, 3])
            return (interim, String(decoding: socket.readToEnd(), as: UTF8.self))
        }
        #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
        #expect(final.hasPrefix("HTTP/1.1 200") && final.contains("\"body\":3"))
    }

    @Test("A state-changing request from another origin, or from none, is refused unless the route allows it")
    func origins() async throws {
        let server = try server()
        defer { server.shutdown() }
        let own = "http://127.0.0.1:\(server.port)"
        func post(_ path: String, _ headers: [(String, String)]) async throws -> Int {
            try await HTTPTestClient.send(port: server.port, "POST", path, headers: headers, body: [1, 2]).status
        }
        #expect(try await post("/items/1", [("Origin", "http://evil.example")]) == 403)
        #expect(try await post("/items/1", [("Origin", "null")]) == 403)
        #expect(try await post("/items/1", []) == 403)
        #expect(try await post("/items/1", [("Referer", "http://evil.example/page")]) == 403)
        #expect(try await post("/items/1", [("Origin", own)]) == 200)
        #expect(try await post("/items/1", [("Referer", own + "/lots/7?x=1")]) == 200)
        #expect(try await post("/hooks/pay", [("Origin", "http://evil.example")]) == 200)
        #expect(try await post("/hooks/pay", []) == 200)
        // GET changes nothing: no origin needed.
        #expect(try await HTTPTestClient.send(port: server.port, "GET", "/items/1").status == 200)
    }

    @Test("An allowed origin list replaces the server's own origin")
    func allowedOrigins() async throws {
        let server = try server { $0.allowedOrigins = ["https://app.example"] }
        defer { server.shutdown() }
        let post = { (origin: String) in
            try await HTTPTestClient.send(
                port: server.port, "POST", "/items/1", headers: [("Origin", origin)], body: [1]
            ).status
        }
        #expect(try await post("https://app.example") == 200)
        #expect(try await post("http://127.0.0.1:\(server.port)") == 403)
    }

    @Test("A path or query that is not UTF-8 once decoded gets 400, and the server goes on")
    func malformed() async throws {
        let server = try server()
        defer { server.shutdown() }
        #expect(try await HTTPTestClient.send(port: server.port, "GET", "/items/%FF%FE").status == 400)
        #expect(try await HTTPTestClient.send(port: server.port, "GET", "/items/1?q=%C3").status == 400)
        let bad = try await HTTPTestClient.send(
            port: server.port, "POST", "/items/1",
            headers: [RouteTestSupport.ownOrigin(server), ("Content-Length", "lots")])
        #expect(bad.status == 400)
        #expect(try await HTTPTestClient.send(port: server.port, "GET", "/items/1").status == 200)
    }

    @Test("A route may not hide what the server answers itself")
    func reservedPaths() {
        for pattern in ["/ws", "/_footlight/upload/{ticket}", "/footlight/{file}", "/"] {
            var routes = Routes()
            routes.get(pattern) { _ in .text("no") }
            #expect(throws: ServerError.self, "\(pattern)") { try RouteTestSupport.start(routes) }
        }
        var routes = Routes()
        routes.get("/items/{id}/{id}") { _ in .text("no") }
        #expect(throws: ServerError.self) { try RouteTestSupport.start(routes) }
    }
}
