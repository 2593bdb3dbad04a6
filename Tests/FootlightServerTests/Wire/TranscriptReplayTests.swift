import FootlightJSON
import FootlightTesting
import Testing

@testable import FootlightServer

@Suite("Protocol transcripts: the server and the test client speak each conversation as written")
struct TranscriptReplayTests {
    static let transcripts = (try? Transcript.all()) ?? []

    @Test("There are transcripts, and together they hold every message type of the table")
    func coverage() throws {
        let transcripts = try Transcript.all()
        #expect(transcripts.count >= 4)
        var client: Set<String> = []
        var server: Set<String> = []
        for transcript in transcripts {
            for step in transcript.steps {
                switch step {
                case .client(let message): client.insert(message[.type]?.stringValue ?? "")
                case .server(let message, _, _): server.insert(message[.type]?.stringValue ?? "")
                case .app, .cut, .restart: break
                }
            }
        }
        #expect(client == Set(Wire.Client.allCases.map(\.rawValue)), "client types")
        #expect(server == Set(Wire.Server.allCases.map(\.rawValue)), "server types")
    }

    @Test("The session machine sends exactly the transcript's server messages, byte for byte", arguments: transcripts)
    func server(_ transcript: Transcript) throws {
        let app = TranscriptApp(transcript)
        var expected: [String] = []
        func check(before step: Int) throws {
            let sent = try app.sent()
            #expect(
                sent == expected,
                "\(transcript): the server's messages before step \(step):\n\(sent.joined(separator: "\n"))")
            expected.removeAll()
        }
        for (index, step) in transcript.steps.enumerated() {
            switch step {
            case .server(let message, _, _):
                expected.append(try message.serialized())
                continue
            case .client(let message):
                try check(before: index)
                try app.receive(message)
            case .app(let action):
                try check(before: index)
                try app.perform(action)
            case .cut:
                try check(before: index)
                app.cut()
            case .restart:
                try check(before: index)
                app.restart()
            }
        }
        try check(before: transcript.steps.count)
    }

    @Test("ClientMirror sends the transcript's client messages and ends with its documents", arguments: transcripts)
    func mirror(_ transcript: Transcript) throws {
        var mirror = ClientMirror()
        var resent: [JSON] = []
        for (index, step) in transcript.steps.enumerated() {
            let at = "\(transcript), step \(index)"
            switch step {
            case .client(let message):
                switch try ClientMessage(json: message) {
                case .join(_, _, let path, let restore, _):
                    #expect(
                        Self.sorted(mirror.joinMessage(path: path, restore: restore)) == Self.sorted(message), "\(at)")
                case .event where !resent.isEmpty:
                    #expect(resent.removeFirst() == message, "\(at): re-sent after the join")
                case .event(let event):
                    #expect(mirror.makeEvent(event.name, stage: event.stage, value: event.value) == message, "\(at)")
                case .ack(let seq):
                    #expect(seq == mirror.lastSeq, "\(at): acknowledges what it applied")
                case .ping, .report:
                    break
                }
            case .server(let message, let lost, let documents):
                guard !lost else { continue }
                resent += mirror.apply(message)
                if let documents {
                    #expect(mirror.documents.mapValues(Self.sorted) == documents.mapValues(Self.sorted), "\(at)")
                }
            case .app, .cut, .restart:
                break
            }
        }
        #expect(mirror.violations == [], "\(transcript)")
        #expect(resent == [], "\(transcript): events the mirror re-sent that the transcript does not")
    }

    /// `json` with every object's members in key order, to compare messages whose
    /// members two clients write in another order.
    static func sorted(_ json: JSON) -> JSON {
        switch json {
        case .object(let members):
            var sorted = JSONObject()
            for key in members.keys.sorted() { sorted[key] = Self.sorted(members[key]!) }
            return .object(sorted)
        case .array(let items): return .array(items.map(sorted))
        default: return json
        }
    }
}
