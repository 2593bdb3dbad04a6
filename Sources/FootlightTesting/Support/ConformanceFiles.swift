import Foundation

/// Where the shared conformance suites live: `$FOOTLIGHT_CONFORMANCE_DIR`, or
/// `../shared/conformance` beside the repository. Tests read them at run time.
public enum ConformanceFiles {
    /// The folder holding `json-patch/` and `json-parsing/`.
    public static let directory: URL = {
        if let override = ProcessInfo.processInfo.environment["FOOTLIGHT_CONFORMANCE_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Support
            .deletingLastPathComponent()  // FootlightTesting
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // repository root
        return repository.deletingLastPathComponent().appendingPathComponent("shared/conformance", isDirectory: true)
    }()

    /// Whether a missing suite must fail the tests (`FOOTLIGHT_REQUIRE_CONFORMANCE=1`,
    /// set by `.ci/run`) rather than skip them.
    public static let isRequired = ProcessInfo.processInfo.environment["FOOTLIGHT_REQUIRE_CONFORMANCE"] == "1"
}
