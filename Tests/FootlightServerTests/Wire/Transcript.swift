import FootlightJSON
import Foundation

/// A conversation of protocol v1, from `Tests/Fixtures/protocol/*.json`, replayed by the
/// session machine, by ``ClientMirror`` and by the browser runtime (under `node --test`,
/// `Tests/RuntimeTests/transcripts.test.js`), so that all three read the wire alike.
///
/// A transcript is an object: `about` (what it shows), optional `limits` (the session's
/// ``SessionLimits`` that differ: `replayMessages`), optional `templates` (for the
/// runtime: the slots each page template shows), and `steps`, each one of:
/// - `{"client": message}`: the client sends it;
/// - `{"server": message}`: the server sends it, in answer to the steps before;
///   `"lost": true` when it is lost in a cut and never reaches the client; `"documents"`:
///   each stage's document once the client applied it;
/// - `{"app": action}`: app code on the server does something (`push`, `pop`, `open`,
///   `run`, `set`, `end`; see ``TranscriptApp``); no client sees it;
/// - `{"cut": true}`: the connection drops; the client reconnects;
/// - `{"restart": true}`: the same, and the server forgets every session (a new process).
///
/// The app is a counter at the root (stage `counter`, template `counter`, document
/// `{"count": n}`, events `increment` and `amount`).
struct Transcript: CustomStringConvertible {
    enum Step {
        case client(JSON)
        case server(JSON, lost: Bool, documents: [String: JSON]?)
        case app(JSON)
        case cut
        case restart
    }

    let name: String
    let about: String
    let replayMessages: Int?
    let steps: [Step]

    var description: String { name }

    /// Every transcript in the fixtures folder, by file name.
    static func all() throws -> [Transcript] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/protocol")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        return try files.sorted().map { file in
            let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
            return try Transcript(name: file, json: bytes.withUnsafeBytes { try JSON.parse($0) })
        }
    }

    init(name: String, json: JSON) throws {
        self.name = name
        about = json["about"]?.stringValue ?? ""
        replayMessages = if case .int(let count)? = json["limits"]?["replayMessages"] { Int(count) } else { nil }
        steps = try (json["steps"]?.arrayValue ?? []).map { step in
            if let message = step["client"] { return .client(message) }
            if let message = step["server"] {
                let documents = step["documents"].map { documents in
                    Dictionary(uniqueKeysWithValues: (documents.objectValue ?? [:]).map { ($0.key, $0.value) })
                }
                return .server(message, lost: step["lost"] == true, documents: documents)
            }
            if let action = step["app"] { return .app(action) }
            if step["cut"] == true { return .cut }
            if step["restart"] == true { return .restart }
            throw TranscriptError(description: "\(name): a step that is none of client, server, app, cut: \(step)")
        }
    }

    struct TranscriptError: Error, CustomStringConvertible {
        let description: String
    }
}
