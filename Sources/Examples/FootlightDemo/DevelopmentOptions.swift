import ArgumentParser
import FootlightServer

/// `--development`: development mode (``ServerConfiguration/development``), as `scripts/dev`
/// runs the demo. Its help says whether this build has it: only a debug build does.
struct DevelopmentOptions: ParsableArguments {
    @Flag(help: ArgumentHelp(Self.help))
    var development = false

    static let help =
        ServerConfiguration.developmentAvailable
        ? "Development mode, as scripts/dev runs it: at start each stage's bindings checked against the page's templates (every mismatch logged with a \"did you mean\"), the compiler's errors in an overlay, template, stylesheet and hook changes in open pages in place, a reconnect at once after a restart, the server's warnings in the browser console. Debug builds only."
        : "Development mode: not in this build (a release build has no development features; a debug build, `swift build`, has them)."

    /// Sets development mode in `configuration`.
    func apply(to configuration: inout ServerConfiguration) {
        configuration.development = development
    }
}
