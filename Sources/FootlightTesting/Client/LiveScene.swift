import Footlight
import FootlightJSON
import FootlightServer
import Foundation
import Testing

/// A ``SceneSession`` over a real loopback socket: a live ``Server`` running the app
/// and a ``TestClient`` joined to it. Waits are bounded (10 s); ``stop()`` shuts the
/// server down.
public final class LiveScene: SceneSession {
    /// The server the scene runs on.
    public let server: Server
    /// The client holding the page's mirror.
    public let client: TestClient
    /// Commands of the mirror already asserted (the first page's mounts count as seen).
    private let asserted: Locked<Int>

    private init(server: Server, client: TestClient) {
        self.server = server
        self.client = client
        asserted = Locked(client.observation.mirror.commands.count)
    }

    /// Starts a server with `entry` and joins it with the page path `path`.
    public static func start(_ entry: @escaping AppEntry, path: String = "/") async throws -> LiveScene {
        let server = try TestServer.startApp(entry) { $0.sendsErrorDetails = true }
        do {
            return LiveScene(server: server, client: try await TestClient.connect(port: server.port, path: path))
        } catch {
            server.shutdown()
            throw error
        }
    }

    /// Shuts the server down.
    public func stop() {
        server.shutdown()
    }

    public func send(_ event: String, to stage: String, value: JSON?, sourceLocation: SourceLocation) async throws {
        try await client.send(event, in: stage, value: value)
        try await client.waitUntilAcknowledged()
    }

    public func expect(_ stage: String, _ slots: JSONObject, sourceLocation: SourceLocation) async throws {
        for (slot, expected) in slots {
            let pointer = "/" + slot.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            do {
                try await client.waitUntil(pointer, in: stage, equals: expected)
            } catch {
                let actual = client.value(at: pointer, in: stage) ?? .null
                Issue.record(
                    "\(stage)/\(slot): expected \((try? expected.serialized()) ?? "?"), got \((try? actual.serialized()) ?? "?")",
                    sourceLocation: sourceLocation)
            }
        }
    }

    public func expectCommands(_ expected: [SceneCommand], sourceLocation: SourceLocation) async throws {
        let start = asserted.withLock { $0 }
        try? await client.wait("\(expected.count) command(s)") { $0.mirror.commands.count >= start + expected.count }
        let commands = client.observation.mirror.commands
        let actual = Array(commands[min(start, commands.count)...])
        asserted.withLock { $0 = commands.count }
        if actual != expected {
            Issue.record(
                "context commands: expected \(expected.map(\.description)), got \(actual.map(\.description))",
                sourceLocation: sourceLocation)
        }
    }
}
