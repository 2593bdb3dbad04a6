import FootlightJSON
import FootlightServer
import FootlightTesting

/// One browser tab of the benchmark: what it opened, its client, and the values its
/// runtime kept (by stage id), which a page sends in `restore`.
struct Page: Sendable {
    /// Where a page opens and what it sets there, as the restart test's pages do.
    enum Kind: Sendable {
        /// "/": the listings, ordered alphabetically (`order`, a recoverable event).
        case listings
        /// "/lots/lot-2": the listings with the lot pushed, an amount typed in the lot
        /// (`amount`, recoverable).
        case lot

        /// Every tenth page shows the lot, the others the listings.
        init(index: Int) { self = index % 10 == 9 ? .lot : .listings }

        /// The path of its fresh join (nil: "/").
        var path: String? { self == .lot ? "/lots/lot-2" : nil }
    }

    let kind: Kind
    let client: TestClient
    let kept: [String: JSONObject]

    /// Opens a page of `kind` on `port`, sends its recoverable event and waits until
    /// the server has acknowledged it.
    static func open(_ kind: Kind, port: Int, timeout: Duration) async throws -> Page {
        let client = try await TestClient.connect(port: port, path: kind.path, timeout: timeout)
        let kept: [String: JSONObject]
        switch kind {
        case .listings:
            try await client.send("order", in: "listings", value: ["id": "alphabetical"])
            kept = ["listings": ["order": ["id": "alphabetical"]]]
        case .lot:
            guard let lot = client.observation.mirror.stages.last?.id, lot != "listings" else {
                throw RestartError("the page at /lots/lot-2 shows no lot: \(client.observation.mirror.stages)")
            }
            try await client.send("amount", in: lot, value: "12345")
            kept = [lot: ["amount": "12345"]]
        }
        try await client.waitUntilAcknowledged(timeout: timeout)
        return Page(kind: kind, client: client, kept: kept)
    }

    /// What the page sends in `restore`: the stages it shows and the values it kept.
    var restore: ClientMessage.Restore { client.observation.mirror.restore(values: kept) }

    /// Its stages' templates, in the order they were mounted.
    var templates: [String] { client.observation.mirror.stages.map(\.template) }

    /// What is wrong with the page after its resume, given the templates it showed
    /// before the restart: nil when it is rebuilt whole, with its value back.
    func problem(showedBefore templates: [String]) -> SessionProblem? {
        let mirror = client.observation.mirror
        guard let rebuilt = mirror.rebuilt else {
            return SessionProblem(
                kind: "not rebuilt (no \"rebuilt\" in joined)",
                example: "resumed \(mirror.resumes), snapshots \(mirror.snapshots)")
        }
        if rebuilt.count != templates.count || rebuilt.contains(nil) {
            return SessionProblem(kind: "stages not rebuilt", example: "rebuilt \(rebuilt) for \(templates)")
        }
        if self.templates != templates {
            return SessionProblem(kind: "different stages", example: "\(self.templates), before \(templates)")
        }
        if let error = mirror.errors.first {
            return SessionProblem(kind: "error message \"\(error.code)\"", example: error.message)
        }
        if let violation = mirror.violations.first {
            return SessionProblem(kind: "protocol violation", example: violation)
        }
        switch kind {
        case .listings:
            let layout = client.value(at: "/layout", in: "listings")
            if layout != "table" {
                return SessionProblem(kind: "the order was lost", example: "layout \(String(describing: layout))")
            }
        case .lot:
            let amount = mirror.stages.last.flatMap { client.value(at: "/amount", in: $0.id) }
            if amount != "12345" {
                return SessionProblem(kind: "the amount was lost", example: "amount \(String(describing: amount))")
            }
        }
        return nil
    }
}
