import FootlightTesting
import Foundation
import Testing

/// Finds the shared conformance suites that live beside the repository
/// (`../shared/conformance`), or in `$FOOTLIGHT_CONFORMANCE_DIR`.
///
/// A clone without them skips only the tests that read them. With
/// `FOOTLIGHT_REQUIRE_CONFORMANCE=1` (set by `.ci/run`) a missing suite fails.
enum ConformanceSuite {
    static let directory = ConformanceFiles.directory

    static let isRequired = ConformanceFiles.isRequired

    static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    static func isPresent(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: url(relativePath).path)
    }

    static func skipMessage(_ relativePath: String) -> Comment {
        "conformance suite missing at \(url(relativePath).path); set FOOTLIGHT_CONFORMANCE_DIR to run it"
    }
}

@Suite struct ConformanceSuitePresence {
    @Test("The conformance suites are present when FOOTLIGHT_REQUIRE_CONFORMANCE=1")
    func suitesArePresentWhenRequired() {
        guard ConformanceSuite.isRequired else { return }
        for suite in ["json-patch/tests.json", "json-patch/spec_tests.json", "json-parsing/test_parsing"] {
            #expect(
                ConformanceSuite.isPresent(suite),
                "required conformance suite missing: \(ConformanceSuite.url(suite).path)")
        }
    }
}
