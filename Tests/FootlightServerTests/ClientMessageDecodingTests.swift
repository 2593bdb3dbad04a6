import FootlightServer
import Foundation
import Testing

/// The inbound decoder on its own (bytes → JSON → ClientMessage); over real sockets
/// in BadInputTests, and under libFuzzer in Sources/Tools/ClientMessageFuzzer.
@Suite struct ClientMessageDecodingTests {
    @Test("A report is cut to 128 and 1,000 bytes between characters, never past the limit")
    func reportIsCutBetweenCharacters() throws {
        // The limits fall inside a 2-byte "é" and a 4-byte "😀"; cutting the bytes there
        // used to leave a replacement character that took the text past the limit.
        let stage = String(repeating: "a", count: 127)
        let text = String(repeating: "b", count: 999)
        let message = try decode(#"{"t":"report","stage":"\#(stage)é","message":"\#(text)😀"}"#)
        #expect(message == .report(stage: stage, message: text))
    }

    @Test("Every committed fuzz seed is a valid message")
    func fuzzSeedsDecode() throws {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz-seeds/client-message")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(names.count >= 10)
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(throws: Never.self, "\(name)") { try decode(text) }
        }
    }

    @Test("A join's restore is decoded; a malformed one is left out with a bad-message refusal, and the join stands")
    func restore() throws {
        let message = try decode(
            #"{"t":"join","v":1,"restore":[{"template":"home"},{"template":"lot","place":"push","url":"/lots/2","values":{"amount":"12"}}]}"#
        )
        #expect(
            message
                == .join(
                    version: 1, resume: nil, path: nil,
                    restore: ClientMessage.Restore(stages: [
                        .init(template: "home", placement: .root),
                        .init(template: "lot", placement: .push, url: "/lots/2", values: ["amount": "12"]),
                    ])))
        let long = String(repeating: "x", count: 129)
        let tooMany = Array(repeating: #"{"template":"a"}"#, count: 17).joined(separator: ",")
        let manyValues = (0..<33).map { #""e\#($0)":1"# }.joined(separator: ",")
        for restore in [
            #"{}"#, #"[1]"#, #"[{}]"#, #"[{"template":""}]"#, #"[{"template":"\#(long)"}]"#, "[\(tooMany)]",
            #"[{"template":"a","place":"side"}]"#, #"[{"template":"a","url":7}]"#, #"[{"template":"a","values":[]}]"#,
            #"[{"template":"a","values":{"":1}}]"#, #"[{"template":"a","values":{\#(manyValues)}}]"#,
        ] {
            let message = try decode(#"{"t":"join","v":1,"path":"/","restore":\#(restore)}"#)
            guard case .join(_, _, let path, let kept, let refusal) = message else {
                Issue.record("\(restore) did not decode as a join")
                continue
            }
            #expect(path == "/" && kept == nil, "\(restore)")
            #expect(refusal?.code == .badMessage, "\(restore)")
        }
    }

    private func decode(_ text: String) throws(ProtocolError) -> ClientMessage {
        let bytes = Array(text.utf8)
        let result: Result<ClientMessage, ProtocolError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(ProtocolError) -> ClientMessage in try ClientMessage(bytes: buffer) }
        }
        return try result.get()
    }
}
