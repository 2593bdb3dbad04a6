import Foundation

/// Development mode's page script (`DevelopmentScript/dev.js`, a resource of this module apart from the
/// runtime): served at ``developmentScriptPath`` and named in every page only when the server runs
/// in development mode with a channel to listen to (``ServerConfiguration/developmentChannel``),
/// never in the runtime's bundle, and never by a release build.
extension StaticAssets {
    /// Where the development script is served.
    static let developmentScriptPath = "/footlight/dev.js"

    /// The development script's file: beside the executable
    /// (`Footlight_FootlightServer.resources/DevelopmentScript/dev.js`), or where the build left it.
    static func developmentScript() throws(ServerError) -> String {
        guard let url = Bundle.module.url(forResource: "DevelopmentScript", withExtension: nil) else {
            throw ServerError.configuration("the development script is missing from \(Bundle.module.bundlePath)")
        }
        return url.path + "/dev.js"
    }

    /// The tag that loads the development script, listening to `channel`: deferred, so that it
    /// runs after the runtime whether or not the page defers the runtime.
    static func developmentTag(channel: String) -> String {
        let attribute = channel.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: "\"", with: "&quot;"
        )
        .replacingOccurrences(of: "<", with: "&lt;")
        return "<script defer src=\"\(developmentScriptPath)\" data-channel=\"\(attribute)\"></script>\n"
    }

    /// `html` with the development script's tag before its `</body>`, or at its end without one.
    static func addingDevelopmentTag(to html: String, channel: String) -> String {
        let tag = developmentTag(channel: channel)
        guard let end = html.range(of: "</body>", options: [.caseInsensitive, .backwards]) else { return html + tag }
        return html.replacingCharacters(in: end.lowerBound..<end.lowerBound, with: tag)
    }
}
