import DemoApp
import FootlightJSON
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

    /// A random change to a collection of about `model.rows.count` rows.
    static func randomChange(_ model: Model, _ step: Int, using random: inout SeededRandom) -> JSON {
        let ids = model.rows.map(\.id)
        let someID: JSON = .string(ids.randomElement(using: &random) ?? "none")
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<2:
            return [
                "op": "insert", "id": .string("n\(step)"), "text": "new",
                "at": .int(Int64.random(in: -1...Int64(ids.count + 1), using: &random)),
            ]
        case 2..<6: return ["op": "update", "id": someID, "text": .string("t\(step)")]
        case 6..<8:
            return ["op": "move", "id": someID, "to": .int(Int64.random(in: 0...Int64(ids.count), using: &random))]
        default: return ["op": "remove", "id": someID]
        }
    }

    @Test(
        "Random row changes with the socket dropped every 40: replayed, none lost, none twice; the replica equals the server's document"
    )
    func changesAcrossDrops() async throws {
        // The changes come faster than a person clicks: no rate limit.
        let server = try TestServer.start(configure: {
            $0.sessionLimits.eventsPerSecond = 1e6
            $0.sessionLimits.eventBurst = 1e6
        }) { _ in [ProbeScenes.keyedStage()] }
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        var model = Model()
        var random = SeededRandom(seed: 5)
        let reset: JSON = ["op": "reset", "count": 200]
        model.apply(reset)
        try await client.send("change", in: "keyed", value: reset)
        for step in 0..<400 {
            let change = Self.randomChange(model, step, using: &random)
            model.apply(change)
            try await client.send("change", in: "keyed", value: change)
            if step % 40 == 39 {
                client.drop()  // mid-stream: changes and patches are still in flight
                try await client.resume()
            }
        }
        try await client.waitUntilAcknowledged()
        try await client.waitUntil("/rows", in: "keyed", equals: model.json)
        let mirror = client.observation.mirror
        #expect(mirror.violations.isEmpty, "no patch out of order or failing")
        #expect(mirror.errors.isEmpty)
        #expect(mirror.resumes == 10 && mirror.snapshots == 0)
        #expect(mirror.counts["patch", default: 0] > 100, "the changes came as patches, not mounts")

        let token = try #require(mirror.token)
        let view = try await ServerView.documents(ofSession: token, port: server.port)
        #expect(view.documents["keyed"] == client.document(of: "keyed"))
    }

    @Test("Row changes the replay no longer holds: a snapshot, and the replica equals the server's document")
    func changesAcrossSnapshot() async throws {
        let server = try TestServer.start(configure: { $0.sessionLimits.replayMessages = 2 }) { _ in
            [ProbeScenes.keyedStage()]
        }
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        var model = Model()
        var random = SeededRandom(seed: 9)
        let reset: JSON = ["op": "reset", "count": 50]
        model.apply(reset)
        try await client.send("change", in: "keyed", value: reset)
        try await client.waitUntilAcknowledged()
        client.pauseReading()
        for step in 0..<30 {
            let change = Self.randomChange(model, step, using: &random)
            model.apply(change)
            try await client.send("change", in: "keyed", value: change)
            try await Task.sleep(for: .milliseconds(2))
        }
        try await Task.sleep(for: .milliseconds(200))
        client.drop()
        client.resumeReading()
        try await client.resume()
        try await client.waitUntilAcknowledged()
        try await client.waitUntil("/rows", in: "keyed", equals: model.json)
        #expect(client.observation.mirror.snapshots == 1, "the missed patches were no longer held")
        #expect(client.observation.mirror.violations.isEmpty)
        let token = try #require(client.observation.mirror.token)
        let view = try await ServerView.documents(ofSession: token, port: server.port)
        #expect(view.documents["keyed"] == client.document(of: "keyed"))
    }
}
