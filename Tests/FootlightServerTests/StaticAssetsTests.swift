import FootlightProbes
import Foundation
import Testing

@testable import FootlightServer
@testable import FootlightTesting

/// The runtime (the framework's, whatever the public folder holds) as one response at a
/// content-hashed address, pages naming it, and gzip.
@Suite(.timeLimit(.minutes(1)))
struct StaticAssetsTests {
    /// An app's public folder, with a page and stylesheets and no runtime; removed by `remove`.
    struct Folder {
        let path = NSTemporaryDirectory() + "footlight-assets-test-\(getpid())-\(UUID().uuidString.prefix(8))"

        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try write(
                "index.html",
                "<!doctype html><title>t</title>" + String(repeating: "<p>page</p>\n", count: 30)
                    + "<script src=\"/footlight/footlight.js\"></script>\n")
            try write("app.css", String(repeating: "p { color: black; }\n", count: 40))
            try write("tiny.css", "p{}\n")
        }

        /// A folder holding a runtime of its own, for tests that edit it.
        static func runtimeFolder() throws -> Folder {
            let folder = try Folder()
            for name in StaticAssets.runtimeFiles { try folder.write(name, Self.runtime(name)) }
            return folder
        }

        static func runtime(_ name: String, edition: Int = 1) -> String {
            "// \(name), edition \(edition)\n" + String(repeating: "var \(name.prefix(4))x = 1;\n", count: 30)
        }

        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
        }

        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "gzip -d refused the body")
        return Array(data)
    }

    func bundleAddress(in page: RawHTTP.Response) throws -> String {
        let text = String(decoding: page.body, as: UTF8.self)
        let match = try #require(text.firstMatch(of: /src="(\/footlight\/footlight\.[0-9a-f]{16}\.js)"/))
        return String(match.1)
    }

    /// The framework's runtime files joined in load order, as the bundle holds them.
    static func frameworkBundle() throws -> String {
        let folder = try StaticAssets.runtimeFolder()
        return try StaticAssets.runtimeFiles.map {
            try String(contentsOfFile: folder + "/" + $0, encoding: .utf8) + "\n"
        }.joined()
    }

    @Test("A public folder with no runtime: the page names the framework's by its content's hash, cached as immutable")
    func hashedBundle() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let server = try TestServer.start(configure: {
            $0.publicDirectory = folder.path
            $0.firstContent.isEnabled = false  // the plain page's caching
        }) { _ in [] }
        defer { server.shutdown() }

        let page = try RawHTTP.get(port: server.port, path: "/")
        #expect(page.status == 200)
        #expect(page.headers["cache-control"] == "private, no-cache", "a new visitor's page")
        let address = try bundleAddress(in: page)
        #expect(!String(decoding: page.body, as: UTF8.self).contains("\"/footlight/footlight.js\""))

        let bundle = try RawHTTP.get(port: server.port, path: address)
        #expect(bundle.status == 200)
        #expect(bundle.headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(bundle.headers["cache-control"] == "public, max-age=31536000, immutable")
        #expect(bundle.headers["content-encoding"] == nil)
        #expect(String(decoding: bundle.body, as: UTF8.self) == (try Self.frameworkBundle()), "in load order")

        // The stable address and an out-of-date hash get today's bundle, not cached.
        for path in ["/footlight/footlight.js", "/footlight/footlight.0123456789abcdef.js"] {
            let other = try RawHTTP.get(port: server.port, path: path)
            #expect(other.status == 200, "\(path)")
            #expect(other.headers["cache-control"] == "no-cache", "\(path)")
            #expect(other.body == bundle.body, "\(path)")
        }
        #expect(try RawHTTP.get(port: server.port, path: "/footlight/footlight.x.js").status == 404)
        // The runtime's own files are still there one by one.
        #expect(try RawHTTP.get(port: server.port, path: "/footlight/patch.js").status == 200)
    }

    @Test("A runtime in the app's public folder is never served: the framework's answers at every runtime address")
    func publicCopyIgnored() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/footlight", withIntermediateDirectories: true)
        for name in StaticAssets.runtimeFiles + ["footlight.js"] {
            try folder.write("footlight/" + name, "// the app's own copy of \(name)\n")
        }
        #expect(StaticAssets.shadowedRuntime(in: folder.path).count == StaticAssets.runtimeFiles.count + 1)
        let server = try TestServer.start(configure: { $0.publicDirectory = folder.path }) { _ in [] }
        defer { server.shutdown() }

        let framework = try Self.frameworkBundle()
        let address = try bundleAddress(in: try RawHTTP.get(port: server.port, path: "/"))
        for path in [address, StaticAssets.bundlePath] {
            #expect(String(decoding: try RawHTTP.get(port: server.port, path: path).body, as: UTF8.self) == framework)
        }
        let patch = try String(contentsOfFile: try StaticAssets.runtimeFolder() + "/patch.js", encoding: .utf8)
        #expect(
            String(decoding: try RawHTTP.get(port: server.port, path: "/footlight/patch.js").body, as: UTF8.self)
                == patch)
    }

    @Test("An edited runtime file gives a new hash, and the page names it at once")
    func editedRuntime() throws {
        let folder = try Folder()
        let runtime = try Folder.runtimeFolder()
        defer {
            folder.remove()
            runtime.remove()
        }
        let assets = try StaticAssets(root: folder.path, runtime: runtime.path)
        func address() throws -> String {
            let page = try assets.variant(
                path: folder.path + "/index.html", contentType: "text/html; charset=utf-8", cacheControl: "no-cache",
                acceptsGzip: false)
            let text = try String(contentsOfFile: page.path, encoding: .utf8)
            return String(try #require(text.firstMatch(of: /\/footlight\/footlight\.[0-9a-f]{16}\.js/)).0)
        }
        let before = try address()
        // A different size, so the change shows whatever the file system's time resolution.
        try runtime.write("events.js", Folder.runtime("events.js", edition: 22))
        let after = try address()
        #expect(after != before)
        let bundle = try #require(try assets.runtimeVariant(for: after, acceptsGzip: false))
        #expect(try String(contentsOfFile: bundle.path, encoding: .utf8).contains("events.js, edition 22"))
    }

    @Test("Text goes gzip-compressed to a browser that accepts it, with Vary; small files and refusals go plain")
    func gzip() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let server = try TestServer.start(configure: {
            $0.publicDirectory = folder.path
            $0.firstContent.isEnabled = false  // the same page twice (with first content, two sessions)
        }) { _ in [] }
        defer { server.shutdown() }
        let gzip = "Accept-Encoding: gzip, deflate, br\r\n"

        for path in ["/", "/app.css", try bundleAddress(in: try RawHTTP.get(port: server.port, path: "/"))] {
            let plain = try RawHTTP.get(port: server.port, path: path)
            let packed = try RawHTTP.get(port: server.port, path: path, extraHeaders: gzip)
            #expect(packed.status == 200, "\(path)")
            #expect(packed.headers["content-encoding"] == "gzip", "\(path)")
            #expect(packed.headers["vary"] == "Accept-Encoding", "\(path)")
            #expect(plain.headers["vary"] == "Accept-Encoding", "\(path)")
            #expect(plain.headers["content-encoding"] == nil, "\(path)")
            #expect(packed.body.count < plain.body.count, "\(path)")
            #expect(try Self.gunzip(packed.body) == plain.body, "\(path)")
        }
        let tiny = try RawHTTP.get(port: server.port, path: "/tiny.css", extraHeaders: gzip)
        #expect(tiny.headers["content-encoding"] == nil)
        let refused = try RawHTTP.get(
            port: server.port, path: "/app.css", extraHeaders: "Accept-Encoding: gzip;q=0\r\n")
        #expect(refused.headers["content-encoding"] == nil)
    }

    @Test(
        "Accept-Encoding values are read as RFC 9110 says",
        arguments: [
            ("gzip", true), ("GZIP", true), ("deflate, gzip;q=0.5", true), ("*", true), ("x-gzip", true),
            ("gzip;q=0", false), ("gzip; q=0.0", false), ("deflate, br", false), ("", false), ("identity", false),
        ])
    func acceptEncoding(_ header: String, _ accepts: Bool) {
        #expect(acceptsGzip(header) == accepts, "\(header)")
    }
}
