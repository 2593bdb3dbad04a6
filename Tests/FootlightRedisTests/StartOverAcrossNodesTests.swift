import Footlight
import FootlightJSON
import FootlightServer
import FootlightTesting
import Foundation
import Testing

@testable import FootlightRedis

/// `Context.startOver(reason:)` driven by a message from another node, over real
/// sockets: two servers, each with its own Redis pub/sub, on one `redis-server`.
@Suite(.timeLimit(.minutes(2)))
struct StartOverAcrossNodesTests {
    /// A session per page path (a "room"): event "leave" publishes to the room, and every
    /// other session of that room, on any node, starts over.
    static func roomApp(_ pubSub: any PubSub) -> AppEntry {
        { context, path in
            let stage = Stage(name: "room")
            let marker = UUID().uuidString
            let leave = PassthroughSubject<Void, Never>()
            stage.bind(Just(path), to: "path")
            stage.on("leave", send: leave)
            stage.keep(
                leave.sink { _ in try? pubSub.publish(.string(marker), to: "room:\(path)") })
            nonisolated(unsafe) weak let context = context  // used on the session's executor only
            let subscription = pubSub.subscribe(to: "room:\(path)", on: context!.environment.executor) { event in
                guard case .message(let message) = event, message != .string(marker) else { return }
                context?.startOver(reason: "someone left the room")
            }
            stage.keep(AnyCancellable { subscription.cancel() })
            context?.show(SceneOf(stage))
        }
    }

    @Test(
        "A message from node A makes a session on node B start over: close 4002 with the reason, and the session is gone"
    )
    func startOverAcrossNodes() async throws {
        let redis = try RedisServer.start()
        defer { redis.stop() }
        let pubSubs = try (0..<2).map { _ in try RedisPubSub(.init(address: redis.address)) }
        defer { for pubSub in pubSubs { pubSub.shutdown() } }
        let servers = try pubSubs.map { try TestServer.startApp(Self.roomApp($0)) }
        defer { for server in servers { server.shutdown() } }

        let leaving = try await TestClient.connect(port: servers[0].port, path: "/rooms/1")
        let staying = try await TestClient.connect(port: servers[1].port, path: "/rooms/1")
        let otherRoom = try await TestClient.connect(port: servers[1].port, path: "/rooms/2")
        try await waitFor("both nodes' subscriptions") { pubSubs.allSatisfy(\.isLive) }
        #expect(servers[1].sessionCount == 2)

        _ = try await leaving.send("leave", in: "room")
        let close = try await staying.waitForClose()
        #expect(close?.code == 4002)
        #expect(close?.reason == "someone left the room")
        try await waitFor("node B to forget the session") { servers[1].sessionCount == 1 }
        try await Task.sleep(for: .milliseconds(200))
        #expect(leaving.observation.isOpen, "the session that published goes on")
        #expect(otherRoom.observation.isOpen, "another room's session goes on")
    }
}

/// A scene that shows a stage made already.
struct SceneOf: Scene {
    nonisolated(unsafe) let stage: Stage
    init(_ stage: Stage) { self.stage = stage }
    func makeStage(context: Context) -> Stage { stage }
}
