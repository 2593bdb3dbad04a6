import Foundation
import Testing

@testable import FootlightJSON

/// RFC 6902 conformance: the json-patch-tests records in `shared/conformance/json-patch`.
@Suite struct JSONPatchConformanceTests {
    struct Record: CustomTestStringConvertible {
        let file: String
        let index: Int
        let comment: String
        let document: JSON
        let patch: JSON
        let expected: JSON?
        let error: String?

        var testDescription: String { "\(file)#\(index): \(comment)" }
    }

    static func records(_ file: String) -> [Record] {
        let relative = "json-patch/\(file)"
        guard ConformanceSuite.isPresent(relative),
            let data = FileManager.default.contents(atPath: ConformanceSuite.url(relative).path)
        else { return [] }
        // The suite itself has records with duplicate members (testing what a patch
        // parser does with them), so the file is read with duplicates allowed.
        guard
            case .array(let entries) = try? JSON.parse(
                [UInt8](data), options: JSONReadOptions(rejectsDuplicateKeys: false))
        else { return [] }
        return entries.enumerated().compactMap { index, entry in
            guard let document = entry["doc"], let patch = entry["patch"], entry["disabled"] != .bool(true) else {
                return nil
            }
            return Record(
                file: file, index: index, comment: entry["comment"]?.stringValue ?? "",
                document: document, patch: patch, expected: entry["expected"], error: entry["error"]?.stringValue)
        }
    }

    static let allRecords = records("tests.json") + records("spec_tests.json")

    @Test("The suite files hold the expected number of enabled records")
    func suiteIsLoaded() throws {
        try #require(
            ConformanceSuite.isPresent("json-patch/tests.json"), ConformanceSuite.skipMessage("json-patch/tests.json"))
        // 92 enabled records in tests.json and 16 in spec_tests.json (RELIABILITY.md, T19).
        #expect(Self.records("tests.json").count + Self.records("spec_tests.json").count >= 100)
    }

    @Test(
        "Every enabled json-patch-tests record gives the expected document or error",
        .enabled(if: ConformanceSuite.isPresent("json-patch/tests.json"), ConformanceSuite.skipMessage("json-patch")),
        arguments: allRecords)
    func record(_ record: Record) {
        let outcome = Result { () throws -> JSON in
            try JSONPatch(json: record.patch).applied(to: record.document)
        }
        if let expectedError = record.error {
            if case .success(let result) = outcome {
                Issue.record("expected error \"\(expectedError)\" but the patch applied, giving \(describe(result))")
            }
        } else {
            switch outcome {
            case .failure(let error):
                Issue.record("patch failed: \(error)")
            case .success(let result):
                if let expected = record.expected {
                    #expect(result == expected, "got \(describe(result)), expected \(describe(expected))")
                }
            }
        }
    }

    private func describe(_ value: JSON) -> String {
        (try? value.serialized(.canonical)) ?? "\(value)"
    }
}
