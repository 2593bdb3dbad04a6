import Foundation
import Testing

@testable import FootlightServer
@testable import FootlightTesting

/// Development mode's page script (`/footlight/dev.js`): named in every page and served only by a
/// debug build in development mode with a channel, and never part of the runtime's bundle.
@Suite(.timeLimit(.minutes(1)))
struct DevelopmentAssetsTests {
    static let channel = "http://127.0.0.1:9/events?a=1&b=\"2\""
    static let tag =
        "<script defer src=\"/footlight/dev.js\" data-channel=\"http://127.0.0.1:9/events?a=1&amp;b=&quot;2&quot;\"></script>\n"

    static func text(_ response: RawHTTP.Response) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test(
        "In development mode with a channel, pages name the development script after the runtime, and it is served",
        .enabled(if: ServerConfiguration.developmentAvailable))
    func named() throws {
        let folder = try StaticAssetsTests.Folder()
        defer { folder.remove() }
        let server = try TestServer.start(configure: {
            $0.publicDirectory = folder.path
            $0.development = true
            $0.developmentChannel = Self.channel
        }) { _ in [] }
        defer { server.shutdown() }

        let page = Self.text(try RawHTTP.get(port: server.port, path: "/"))
        let tag = try #require(page.range(of: Self.tag), "the page names it, the channel's address escaped")
        let runtime = try #require(page.range(of: "src=\"/footlight/footlight."))
        #expect(runtime.lowerBound < tag.lowerBound, "after the runtime")

        let script = try RawHTTP.get(port: server.port, path: "/footlight/dev.js")
        #expect(script.status == 200)
        #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
        let source = try String(contentsOfFile: try StaticAssets.developmentScript(), encoding: .utf8)
        #expect(Self.text(script) == source)
        let address = try #require(page.firstMatch(of: /src="(\/footlight\/footlight\.[0-9a-f]{16}\.js)"/)).1
        let bundle = Self.text(try RawHTTP.get(port: server.port, path: String(address)))
        #expect(!bundle.contains("footlight-dev-overlay"), "not in the runtime's bundle")
    }

    @Test(
        "Without development mode, or without a channel, no page names it and it is not served",
        arguments: [(false, channel), (true, nil)])
    func notNamed(development: Bool, channel: String?) throws {
        let folder = try StaticAssetsTests.Folder()
        defer { folder.remove() }
        let server = try TestServer.start(configure: {
            $0.publicDirectory = folder.path
            $0.development = development
            $0.developmentChannel = channel
        }) { _ in [] }
        defer { server.shutdown() }

        #expect(!Self.text(try RawHTTP.get(port: server.port, path: "/")).contains("dev.js"))
        #expect(try RawHTTP.get(port: server.port, path: "/footlight/dev.js").status == 404)
    }

    @Test(
        "A release build has no development mode: asked for, it is ignored",
        .enabled(if: !ServerConfiguration.developmentAvailable))
    func release() throws {
        var configuration = ServerConfiguration(publicDirectory: "/")
        configuration.development = true
        configuration.developmentChannel = Self.channel
        #expect(configuration.developmentChannelInUse == nil)
    }

    @Test("The tag goes before the last </body>, whatever its case, or at the end of a page without one")
    func placed() {
        #expect(
            StaticAssets.addingDevelopmentTag(to: "<p>a</body></p></BODY></html>", channel: Self.channel)
                == "<p>a</body></p>" + Self.tag + "</BODY></html>")
        #expect(StaticAssets.addingDevelopmentTag(to: "<p>a</p>", channel: Self.channel) == "<p>a</p>" + Self.tag)
    }
}
