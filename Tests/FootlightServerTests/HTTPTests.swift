import FootlightProbes
import FootlightServer
import FootlightTesting
import Foundation
import Testing

/// The public folder over HTTP, on the same port as the WebSocket.
@Suite(.timeLimit(.minutes(1)))
struct HTTPTests {
    @Test("The index, MIME types and caching headers")
    func files() throws {
        // The plain page's caching (a page with first content is never stored: FirstContentTests).
        let server = try TestServer.start(configure: { $0.firstContent.isEnabled = false }) { _ in
            [CounterScene.makeStage()]
        }
        defer { server.shutdown() }
        let index = try RawHTTP.get(port: server.port, path: "/")
        #expect(index.status == 200)
        #expect(index.headers["content-type"] == "text/html; charset=utf-8")
        #expect(index.headers["cache-control"] == "private, no-cache", "it names a new visitor")
        #expect(index.headers["x-content-type-options"] == "nosniff")
        #expect(String(decoding: index.body, as: UTF8.self).contains("test page"))

        let script = try RawHTTP.get(port: server.port, path: "/app.js")
        #expect(script.status == 200)
        #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(script.headers["cache-control"] == "public, max-age=300")
    }

    @Test("A served folder: its files under its path with its caching, a 404 for what it lacks, nothing outside it")
    func servedFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("served-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: folder.appendingPathComponent("a1.png"))
        try Data("secret".utf8).write(to: folder.deletingLastPathComponent().appendingPathComponent("outside.txt"))
        let server = try TestServer.start(
            configure: {
                $0.servedFolders = [
                    ServedFolder(path: "/pictures/", directory: folder.path, cacheControl: "public, immutable")
                ]
            }, stages: { _ in [CounterScene.makeStage()] })
        defer { server.shutdown() }
        let picture = try RawHTTP.get(port: server.port, path: "/pictures/a1.png")
        #expect(picture.status == 200 && picture.body == [0x89, 0x50, 0x4E, 0x47])
        #expect(picture.headers["content-type"] == "image/png")
        #expect(picture.headers["cache-control"] == "public, immutable")
        for path in [
            "/pictures/missing.png", "/pictures/lots/7", "/pictures/../outside.txt", "/pictures/%2e%2e/outside.txt",
        ] {
            let response = try RawHTTP.get(port: server.port, path: path)
            #expect(!String(decoding: response.body, as: UTF8.self).contains("secret"), "\(path)")
            #expect(!String(decoding: response.body, as: UTF8.self).contains("test page"), "\(path): not the page")
        }
        #expect(try RawHTTP.get(port: server.port, path: "/pictures/missing.png").status == 404)
        #expect(throws: ServerError.self) {
            try TestServer.start(
                configure: { $0.servedFolders = [ServedFolder(path: "pictures", directory: folder.path)] },
                stages: { _ in [] })
        }
    }

    @Test(
        "Missing files and paths leaving the folder never serve a file from outside it",
        arguments: [
            "/missing.html", "/../Package.swift", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc/passwd", "/.hidden",
        ])
    func notFound(_ path: String) throws {
        let server = try TestServer.start { _ in [CounterScene.makeStage()] }
        defer { server.shutdown() }
        let response = try RawHTTP.get(port: server.port, path: path)
        // libwebsockets collapses "/../" before the server sees the path; what is left
        // names no file, so the answer is 404, or the page itself for an address
        // without a file extension (the History API fallback). Never the file outside.
        let body = String(decoding: response.body, as: UTF8.self)
        #expect([200, 403, 404].contains(response.status), "\(path) → \(response.status)")
        if response.status == 200 { #expect(body.contains("test page"), "\(path) served something else: \(body)") }
        #expect(!body.contains("root:"))
    }

    @Test("A method other than GET or HEAD gets 405 with Allow, its body unread; the next request is served")
    func methodNotAllowed() throws {
        let server = try TestServer.start { _ in [CounterScene.makeStage()] }
        defer { server.shutdown() }
        for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
            // Kept alive: the 405 must not leave the body to be read as the next request.
            let request =
                "\(method) /index.html HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 11\r\n\r\nhello=there"
                + "GET /app.js HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n"
            let reply = String(
                decoding: try RawHTTP.exchange(port: server.port, request: Array(request.utf8)), as: UTF8.self)
            let responses = reply.components(separatedBy: "HTTP/1.1 ").dropFirst()
            #expect(responses.first?.hasPrefix("405") == true, "\(method): \(reply.prefix(200))")
            #expect(responses.first?.lowercased().contains("allow: get, head\r\n") == true, "\(method)")
            #expect(responses.dropFirst().first?.hasPrefix("200") == true, "\(method): then \(reply.suffix(300))")
        }
        let head = try RawHTTP.exchange(
            port: server.port,
            request: Array("HEAD /app.js HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n".utf8))
        #expect(String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
    }

    @Test("A symlink pointing out of the public folder is not followed")
    func symlinkEscape() throws {
        let folder = NSTemporaryDirectory() + "footlight-symlink-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("<p>ok</p>".utf8).write(to: URL(fileURLWithPath: folder + "/index.html"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/passwd", withDestinationPath: "/etc/passwd")
        let server = try TestServer.start(configure: { $0.publicDirectory = folder }) { _ in [CounterScene.makeStage()]
        }
        defer { server.shutdown() }
        #expect(try RawHTTP.get(port: server.port, path: "/passwd").status == 404)
        #expect(try RawHTTP.get(port: server.port, path: "/").status == 200)
    }

    @Test("The server listens on exactly the configured address, not a wildcard")
    func listensOnlyOnLoopback() throws {
        let server = try TestServer.start { _ in [CounterScene.makeStage()] }
        defer { server.shutdown() }
        // /proc/net/tcp lists local addresses as hex IP:port; 0100007F is 127.0.0.1.
        // procfs files report a size of 0; read them to the end (a sized read can stop
        // after the first page when the machine has many sockets).
        func contents(_ path: String) -> String {
            String(decoding: FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        }
        let table = contents("/proc/net/tcp") + contents("/proc/net/tcp6")
        let port = String(format: "%04X", server.port)
        let listening = table.split(separator: "\n").filter { $0.contains(":\(port) ") && $0.contains(" 0A ") }
        #expect(listening.count == 1, "\(listening)")
        #expect(listening.first?.contains("0100007F:\(port)") == true)
    }

    @Test("A missing public folder or a bad address is a readable configuration error")
    func configurationErrors() {
        var configuration = ServerConfiguration(publicDirectory: "/no/such/folder")
        configuration.port = 0
        #expect(throws: ServerError.self) { try Server(configuration: configuration) { _ in [] } }
        configuration.publicDirectory = NSTemporaryDirectory()
        configuration.host = "not-an-address"
        let error = #expect(throws: ServerError.self) { try Server(configuration: configuration) { _ in [] } }
        #expect(error?.description.contains("not an IPv4 or IPv6 address") == true)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct EchoEndpointTests {
    func handshake(port: Int, path: String, subprotocol: String?) throws -> String {
        let offer = subprotocol.map { "Sec-WebSocket-Protocol: \($0)\r\n" } ?? ""
        let request = """
            GET \(path) HTTP/1.1\r
            Host: 127.0.0.1:\(port)\r
            Upgrade: websocket\r
            Connection: Upgrade\r
            Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
            Sec-WebSocket-Version: 13\r
            \(offer)\r

            """
        let reply = try RawHTTP.exchangeUntilHeaders(port: port, request: Array(request.utf8))
        return String(decoding: reply.prefix(while: { $0 != 13 }), as: UTF8.self)
    }

    @Test("The echo endpoint answers only when configured, with its subprotocol or none")
    func echoEndpoint() throws {
        let server = try TestServer.start(configure: { $0.echoPath = "/echo" }) { _ in [CounterScene.makeStage()] }
        defer { server.shutdown() }
        #expect(try handshake(port: server.port, path: "/echo", subprotocol: "footlight.echo").contains(" 101 "))
        // Conformance runners offer no subprotocol.
        #expect(try handshake(port: server.port, path: "/echo", subprotocol: nil).contains(" 101 "))
        #expect(try !handshake(port: server.port, path: "/echo", subprotocol: "footlight.v1").contains(" 101 "))
        // Without a subprotocol only the echo path upgrades; the session endpoint refuses.
        #expect(try !handshake(port: server.port, path: "/ws", subprotocol: nil).contains(" 101 "))
        #expect(server.sessionCount == 0)
        let plain = try TestServer.start { _ in [CounterScene.makeStage()] }
        defer { plain.shutdown() }
        #expect(try !handshake(port: plain.port, path: "/echo", subprotocol: "footlight.echo").contains(" 101 "))
    }
}
