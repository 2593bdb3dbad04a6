import Foundation

/// The long rows of the reliability plan (1,000 cuts, the 1,000-session storm, soak and
/// drain) run at full size with `FOOTLIGHT_LONG_TESTS=1`; by default they run smaller,
/// so `scripts/test` stays quick.
enum LongTests {
    static let enabled = ProcessInfo.processInfo.environment["FOOTLIGHT_LONG_TESTS"] == "1"

    /// `long` with `FOOTLIGHT_LONG_TESTS=1`, else `short`.
    static func size(_ long: Int, otherwise short: Int) -> Int { enabled ? long : short }
}
