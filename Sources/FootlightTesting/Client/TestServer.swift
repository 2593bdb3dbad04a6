import Footlight
import FootlightServer
import Foundation

/// Starts servers for tests: bound to 127.0.0.1 on a free port, serving a small
/// temporary public folder, with limits a test can tighten.
public enum TestServer {
    /// A server on 127.0.0.1 and an ephemeral port whose sessions show the stages
    /// `stages` makes. `configure` may change anything but the host and port.
    public static func start(
        configure: (inout ServerConfiguration) -> Void = { _ in }, stages: @escaping StageFactory
    ) throws -> Server {
        try Server(configuration: configuration(configure), stages: stages)
    }

    /// A server like ``start(configure:stages:)`` whose sessions start with `app`.
    public static func startApp(
        _ app: @escaping AppEntry, configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws -> Server {
        try Server(configuration: configuration(configure), app: app)
    }

    private static func configuration(_ configure: (inout ServerConfiguration) -> Void) throws -> ServerConfiguration {
        var configuration = ServerConfiguration(publicDirectory: try publicDirectory())
        configure(&configuration)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        return configuration
    }

    /// A temporary folder with an `index.html`, made once per process.
    public static func publicDirectory() throws -> String {
        try folder.get()
    }

    private static let folder = Result<String, any Error> {
        let path = NSTemporaryDirectory() + "footlight-test-public-\(getpid())"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data("<!doctype html><title>Footlight test</title><p>test page</p>\n".utf8)
            .write(to: URL(fileURLWithPath: path + "/index.html"))
        try Data("console.log('footlight test')\n".utf8).write(to: URL(fileURLWithPath: path + "/app.js"))
        return path
    }
}
