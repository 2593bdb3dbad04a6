import FootlightJSON
import Foundation
import Testing

/// The patch fixtures in `Tests/Fixtures/patches`, one folder per case: `before.json`,
/// `patch.json` and either `after.json` or `error.txt` (the expected `PatchError.Kind`).
///
/// The browser runtime's tests (`Tests/RuntimeTests/patch.test.js`) apply the same folders
/// with `Sources/FootlightServer/Runtime/patch.js`, so the Swift engine and the JavaScript one cannot drift apart.
@Suite struct SharedPatchFixtureTests {
    struct Fixture: CustomTestStringConvertible, Sendable {
        let name: String
        let directory: URL

        var testDescription: String { name }

        func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

        func json(_ name: String) throws -> JSON {
            let data = try Data(contentsOf: file(name))
            return try JSON.parse([UInt8](data))
        }
    }

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // FootlightJSONTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/patches", isDirectory: true)

    static let fixtures: [Fixture] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { name in
            var isDirectory: ObjCBool = false
            let url = directory.appendingPathComponent(name, isDirectory: true)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
            else { return nil }
            return Fixture(name: name, directory: url)
        }
    }()

    @Test("The fixture folder is found and holds at least 12 cases")
    func folderIsFound() {
        #expect(Self.fixtures.count >= 12, "only \(Self.fixtures.count) fixture folders in \(Self.directory.path)")
    }

    @Test("Each fixture gives after.json, or fails with the error kind in error.txt", arguments: fixtures)
    func fixture(_ fixture: Fixture) throws {
        let before = try fixture.json("before.json")
        let patchJSON = try fixture.json("patch.json")
        let errorFile = fixture.file("error.txt")
        if FileManager.default.fileExists(atPath: errorFile.path) {
            let expected = try String(contentsOf: errorFile, encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let error = #expect(throws: PatchError.self) {
                try JSONPatch(json: patchJSON).applied(to: before)
            }
            #expect(error?.kind.description == expected, "\(String(describing: error))")
        } else {
            let after = try fixture.json("after.json")
            let result = try JSONPatch(json: patchJSON).applied(to: before)
            #expect(result == after, "got \(Self.describe(result)), expected \(Self.describe(after))")
        }
    }

    private static func describe(_ value: JSON) -> String {
        (try? value.serialized(.canonical)) ?? "\(value)"
    }
}
