import FootlightJSON
import FootlightProbes
import FootlightServer
import FootlightTesting
import Testing

/// The "keyed" probe stage over real sockets: row changes reach the page as row
/// operations, through drops, replays and snapshots, and the page's replica always
/// equals the server's document.
@Suite(.timeLimit(.minutes(2)))
struct KeyedCollectionSocketTests {
    /// What the collection should hold: the same rules as ``RowChange``, on a plain array.
    struct Model {
        var rows: [(id: String, text: String)] = []

        mutating func apply(_ change: JSON) {
            let id = change["id"]?.stringValue ?? ""
            let text = change["text"]?.stringValue ?? ""
            func number(_ key: String) -> Int? {
                if case .int(let number)? = change[key] { Int(number) } else { nil }
            }
            let existing = rows.firstIndex { $0.id == id }
            switch change["op"]?.stringValue {
            case "insert", "update":
                if let existing {
                    rows[existing].text = text
                } else {
                    rows.insert((id, text), at: min(max(number("at") ?? rows.count, 0), rows.count))
                }
            case "remove":
                if let existing { rows.remove(at: existing) }
            case "move":
                guard let existing else { return }
                let row = rows.remove(at: existing)
                rows.insert(row, at: min(max(number("to") ?? 0, 0), rows.count))
            case "reset":
                rows = (0..<(number("count") ?? 0)).map { ("r\($0)", "") }
            default: break
            }
        }

        var json: JSON { .array(rows.map { ["id": .string($0.id), "text": .string($0.text)] }) }
    }

    /// Random changes to the "keyed" stage, starting with a reset to `rows` rows, and
    /// what the collection should hold after those made so far.
    struct RandomChanges {
        private(set) var model = Model()
        private var random: SeededGenerator
        private var step = 0

        init(seed: UInt64) {
            random = SeededGenerator(seed: seed)
        }

        /// The change that resets the collection to `count` rows.
        mutating func reset(to count: Int) -> JSON {
            let change: JSON = ["op": "reset", "count": .int(Int64(count))]
            model.apply(change)
            return change
        }

        /// A random insert, update, move or remove (of an id that may be gone).
        mutating func next() -> JSON {
            step += 1
            let ids = model.rows.map(\.id)
            let someID: JSON = .string(ids.randomElement(using: &random) ?? "none")
            let change: JSON
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<2:
                change = [
                    "op": "insert", "id": .string("n\(step)"), "text": "new",
                    "at": .int(Int64.random(in: -1...Int64(ids.count + 1), using: &random)),
                ]
            case 2..<6: change = ["op": "update", "id": someID, "text": .string("t\(step)")]
            case 6..<8:
                change = [
                    "op": "move", "id": someID, "to": .int(Int64.random(in: 0...Int64(ids.count), using: &random)),
                ]
            default: change = ["op": "remove", "id": someID]
            }
            model.apply(change)
            return change
        }
    }

    /// Waits until `client` shows what `changes` should have made, then checks that its
    /// replica equals the server's own snapshot of the session.
    func expectReplicaMatches(_ client: TestClient, _ changes: RandomChanges, server: Server) async throws {
        try await client.waitUntilAcknowledged()
        try await client.waitUntil("/rows", in: "keyed", equals: changes.model.json)
        #expect(client.observation.mirror.violations.isEmpty, "no patch out of order or failing")
        let token = try #require(client.observation.mirror.token)
        let view = try await ServerView.documents(ofSession: token, port: server.port)
        #expect(view.documents["keyed"] == client.document(of: "keyed"))
    }

    @Test(
        "Random row changes with the socket dropped every 40: replayed, none lost, none twice; the replica equals the server's document"
    )
    func changesAcrossDrops() async throws {
        // The changes come faster than a person clicks: no rate limit. The client may read
        // patches well behind its sends, so the replay holds every message: each resume
        // must be a replay (the next test covers the snapshot).
        let server = try TestServer.start(configure: {
            $0.sessionLimits.eventsPerSecond = 1e6
            $0.sessionLimits.eventBurst = 1e6
            $0.sessionLimits.replayMessages = 1_000
        }) { _ in [ProbeScenes.keyedStage()] }
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        var changes = RandomChanges(seed: 5)
        try await client.send("change", in: "keyed", value: changes.reset(to: 200))
        for step in 0..<400 {
            try await client.send("change", in: "keyed", value: changes.next())
            if step % 40 == 39 {
                client.drop()  // mid-stream: changes and patches are still in flight
                try await client.resume()
            }
        }
        try await expectReplicaMatches(client, changes, server: server)
        let mirror = client.observation.mirror
        #expect(mirror.errors.isEmpty)
        #expect(mirror.resumes == 10 && mirror.snapshots == 0)
        #expect(mirror.counts["patch", default: 0] > 100, "the changes came as patches, not mounts")
    }

    @Test("Row changes the replay no longer holds: a snapshot, and the replica equals the server's document")
    func changesAcrossSnapshot() async throws {
        let server = try TestServer.start(configure: { $0.sessionLimits.replayMessages = 2 }) { _ in
            [ProbeScenes.keyedStage()]
        }
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        var changes = RandomChanges(seed: 9)
        try await client.send("change", in: "keyed", value: changes.reset(to: 50))
        try await client.waitUntilAcknowledged()
        client.pauseReading()
        for _ in 0..<30 {
            try await client.send("change", in: "keyed", value: changes.next())
            try await Task.sleep(for: .milliseconds(2))
        }
        try await Task.sleep(for: .milliseconds(200))
        client.drop()
        client.resumeReading()
        try await client.resume()
        try await expectReplicaMatches(client, changes, server: server)
        #expect(client.observation.mirror.snapshots == 1, "the missed patches were no longer held")
    }
}
