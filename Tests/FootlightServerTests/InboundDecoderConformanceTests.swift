import FootlightJSON
import FootlightServer
import FootlightTesting
import Foundation
import Testing

/// RELIABILITY.md T16: the JSON parsing suite through the inbound message decoder (the
/// bytes a WebSocket message carries → ClientMessage). Malformed JSON is refused as
/// malformed-json; valid JSON that is not a message is refused as bad-message; nothing
/// crashes or hangs. The suite is read from ../shared/conformance (or
/// $FOOTLIGHT_CONFORMANCE_DIR) at test time.
@Suite struct InboundDecoderConformanceTests {
    static let folder = ConformanceFiles.directory.appendingPathComponent("json-parsing/test_parsing")

    /// Valid JSON the decoder refuses as malformed, on purpose, with the reason.
    static let refusedValidJSON: [String: String] = [
        "y_object_duplicated_key.json": "duplicate keys are refused (an attacker's second value must not win)",
        "y_object_duplicated_key_and_value.json": "duplicate keys are refused",
        "y_object_escaped_null_in_key.json": "jansson does not take an escaped NUL in an object key",
    ]

    func decode(_ bytes: [UInt8]) -> ProtocolError? {
        bytes.withUnsafeBytes { buffer -> ProtocolError? in
            let outcome = Result { () throws(ProtocolError) in try ClientMessage(bytes: buffer) }
            if case .failure(let error) = outcome { return error }
            return nil
        }
    }

    @Test("n_ files are malformed-json, y_ files bad-message (but the listed ones), i_ files anything but a crash")
    func suite() throws {
        guard FileManager.default.fileExists(atPath: Self.folder.path) else {
            #expect(!ConformanceFiles.isRequired, "the json-parsing suite is missing at \(Self.folder.path)")
            return
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0.hasSuffix(".json")
        }
        var counts: [Character: Int] = [:]
        for name in names.sorted() {
            let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(name)))
            let error = decode(bytes)
            counts[name.first!, default: 0] += 1
            switch name.first {
            case "n":
                #expect(error?.code == .malformedJSON, "\(name): \(error.map { "\($0)" } ?? "decoded")")
            case "y":
                let expected: ProtocolError.Code = Self.refusedValidJSON[name] == nil ? .badMessage : .malformedJSON
                #expect(error?.code == expected, "\(name): \(error.map { "\($0)" } ?? "decoded")")
            default:
                #expect(error != nil, "\(name): no suite file is a protocol message")
            }
        }
        #expect(counts["n"] == 188 && counts["i"] == 35, "the whole suite was read: \(counts)")
    }
}
