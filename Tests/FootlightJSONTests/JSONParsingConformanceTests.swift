import Foundation
import Testing

@testable import FootlightJSON

/// JSONTestSuite (`shared/conformance/json-parsing/test_parsing`) through jansson.
@Suite struct JSONParsingConformanceTests {
    static let folder = "json-parsing/test_parsing"

    /// `y_` files jansson 2.14 rejects although they are valid JSON, with the reason.
    /// Each one is checked to still fail, so a library upgrade that fixes it is noticed.
    static let knownRejectedValidFiles: [String: String] = [
        "y_object_escaped_null_in_key.json":
            "jansson refuses \\u0000 in object keys (\"NUL byte in object key not supported\"), even with JSON_ALLOW_NUL",
        "y_object_duplicated_key.json":
            "policy: duplicate keys are rejected by default (JSON_REJECT_DUPLICATES); JSONReadOptions can allow them",
        "y_object_duplicated_key_and_value.json":
            "policy: duplicate keys are rejected by default (JSON_REJECT_DUPLICATES); JSONReadOptions can allow them",
    ]

    @Test(
        "Duplicate keys parse when JSONReadOptions allow them, the last one winning",
        .enabled(if: present, ConformanceSuite.skipMessage(folder)))
    func duplicateKeysCanBeAllowed() throws {
        let lenient = JSONReadOptions(rejectsDuplicateKeys: false)
        #expect(try JSON.parse(Self.contents("y_object_duplicated_key.json"), options: lenient) == ["a": "c"])
        #expect(try JSON.parse(#"{"a":1,"a":2}"#, options: lenient) == ["a": 2])
    }

    static func files(prefix: String) -> [String] {
        let path = ConformanceSuite.url(folder).path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    static func contents(_ name: String) throws -> [UInt8] {
        let url = ConformanceSuite.url("\(folder)/\(name)")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return [UInt8](data)
    }

    static let present = ConformanceSuite.isPresent(folder)

    @Test("The parsing suite has its 95 y_, 188 n_ and 35 i_ files")
    func suiteIsLoaded() throws {
        try #require(Self.present, ConformanceSuite.skipMessage(Self.folder))
        #expect(Self.files(prefix: "y_").count == 95)
        #expect(Self.files(prefix: "n_").count == 188)
        #expect(Self.files(prefix: "i_").count == 35)
    }

    @Test(
        "Every y_ file parses (except the listed jansson deviations, which still fail)",
        .enabled(if: present, ConformanceSuite.skipMessage(folder)),
        arguments: files(prefix: "y_"))
    func accepts(_ name: String) throws {
        let bytes = try Self.contents(name)
        if let reason = Self.knownRejectedValidFiles[name] {
            #expect(throws: JSONError.self, "expected deviation no longer happens: \(reason)") {
                try JSON.parse(bytes)
            }
        } else {
            #expect(throws: Never.self) { try JSON.parse(bytes) }
        }
    }

    @Test(
        "Every n_ file is rejected with a thrown JSONError",
        .enabled(if: present, ConformanceSuite.skipMessage(folder)),
        arguments: files(prefix: "n_"))
    func rejects(_ name: String) throws {
        let bytes = try Self.contents(name)
        let error = #expect(throws: JSONError.self) { try JSON.parse(bytes) }
        #expect(error?.message.isEmpty == false)
    }

    @Test(
        "No i_ file crashes or hangs: it parses or throws a JSONError",
        .enabled(if: present, ConformanceSuite.skipMessage(folder)),
        .timeLimit(.minutes(1)),
        arguments: files(prefix: "i_"))
    func implementationDefined(_ name: String) throws {
        let bytes = try Self.contents(name)
        do {
            let value = try JSON.parse(bytes)
            // Whatever is accepted must also be written back and read again unchanged.
            #expect(try JSON.parse(value.serializedBytes()) == value)
        } catch {
            #expect(!error.message.isEmpty)
        }
    }
}
