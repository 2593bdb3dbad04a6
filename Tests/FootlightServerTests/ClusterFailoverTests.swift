import FootlightJSON
import FootlightServer
import FootlightTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Two nodes, Redis and nginx (`scripts/cluster`): a node killed with SIGKILL while 100
/// visitors' sessions on it are active. Each page reconnects through nginx, lands on the
/// other node, which never had its session, and is rebuilt from what it shows.
@Suite(.timeLimit(.minutes(4)))
struct ClusterFailoverTests {
    @Test("Node A dies with 100 active sessions: each reconnects through nginx to node B and is rebuilt")
    func deadNodesSessionsMove() async throws {
        let cluster = try ClusterProcess(nodes: 2)
        let nodeA = cluster.nodes[0]

        // Visitors land on nodes by their cookie: take cookies until 100 are node A's.
        var cookies: [String] = []
        for _ in 0..<1000 where cookies.count < 100 {
            let page = try RawHTTP.get(port: cluster.port, path: "/")
            let cookie = try #require(page.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
            // A new visitor (no cookie yet) was hashed as none: ask where the cookie goes.
            let again = try RawHTTP.get(port: cluster.port, path: "/", extraHeaders: "Cookie: \(cookie)\r\n")
            if again.headers["x-footlight-node"] == "127.0.0.1:\(nodeA.port)" { cookies.append(cookie) }
        }
        try #require(cookies.count == 100, "1,000 visitors and not 100 on node A")

        // Each is active on a lot: an amount typed (recoverable), acknowledged.
        var clients: [TestClient] = []
        var restores: [ClientMessage.Restore] = []
        for (index, cookie) in cookies.enumerated() {
            let client = try await TestClient.connect(
                port: cluster.port, path: "/lots/lot-\(index % 12 + 1)", cookie: cookie)
            let lot = try #require(client.observation.mirror.stages.last?.id)
            try await client.send("amount", in: lot, value: .string("\(1000 + index)"))
            clients.append(client)
        }
        for (index, client) in clients.enumerated() {
            try await client.waitUntilAcknowledged()
            let lot = try #require(client.observation.mirror.stages.last?.id)
            restores.append(client.observation.mirror.restore(values: [lot: ["amount": .string("\(1000 + index)")]]))
        }

        kill(nodeA.pid, SIGKILL)
        let killed = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (client, restore) in zip(clients, restores) {
                group.addTask { try await client.resume(attempts: 5, restoring: restore, timeout: .seconds(10)) }
            }
            try await group.waitForAll()
        }
        print(
            "ClusterFailoverTests: 100 sessions rebuilt on node B \(ContinuousClock.now - killed) after node A was killed"
        )

        for (index, client) in clients.enumerated() {
            let mirror = client.observation.mirror
            #expect(mirror.stages.map(\.template) == ["listings", "lot"])
            #expect(mirror.rebuilt?.count == 2 && mirror.rebuilt?.contains(nil) == false, "client \(index)")
            #expect(mirror.errors.isEmpty, "client \(index): \(mirror.errors)")
            let lot = try #require(mirror.stages.last?.id)
            #expect(client.value(at: "/amount", in: lot) == .string("\(1000 + index)"))
            #expect(client.value(at: "/lot/id", in: lot) == .string("lot-\(index % 12 + 1)"))
        }
        // nginx sends node A's visitors to node B now.
        let moved = try RawHTTP.get(port: cluster.port, path: "/", extraHeaders: "Cookie: \(cookies[0])\r\n")
        #expect(moved.headers["x-footlight-node"] == "127.0.0.1:\(cluster.nodes[1].port)")
        for client in clients { client.close() }
    }
}
