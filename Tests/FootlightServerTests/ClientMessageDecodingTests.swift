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

    private func decode(_ text: String) throws(ProtocolError) -> ClientMessage {
        let bytes = Array(text.utf8)
        let result: Result<ClientMessage, ProtocolError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(ProtocolError) -> ClientMessage in try ClientMessage(bytes: buffer) }
        }
        return try result.get()
    }
}
