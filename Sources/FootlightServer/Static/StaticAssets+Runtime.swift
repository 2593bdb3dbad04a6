import Foundation

/// The browser runtime ships with the framework: its files are this module's `Runtime`
/// resource folder, served at `/footlight/` whatever an app's public folder holds, so a
/// page always runs the runtime of its server's protocol version.
extension StaticAssets {
    /// The runtime's files, in the order the page loads them (the upload hook last: it
    /// registers itself with the runtime).
    static let runtimeFiles = [
        "constants.js", "pointer.js", "patch.js", "lists.js", "bindings.js", "events.js", "session.js", "storage.js",
        "banner.js", "keeping.js", "transport.js", "history.js", "hooks.js", "stages.js", "commands.js", "runtime.js",
        "upload.js",
    ]

    /// The framework's runtime folder: beside the executable
    /// (`Footlight_FootlightServer.resources/Runtime`), or where the build left it.
    static func runtimeFolder() throws(ServerError) -> String {
        guard let url = Bundle.module.url(forResource: "Runtime", withExtension: nil) else {
            throw ServerError.configuration("the browser runtime is missing from \(Bundle.module.bundlePath)")
        }
        return url.path
    }

    /// The name of the runtime's file that `requestPath` asks for by itself
    /// (`/footlight/patch.js`), or nil.
    static func runtimeFile(at requestPath: String) -> String? {
        let prefix = "/footlight/"
        guard requestPath.hasPrefix(prefix) else { return nil }
        let name = String(requestPath.dropFirst(prefix.count))
        return runtimeFiles.contains(name) ? name : nil
    }

    /// The runtime's addresses that `publicRoot` also holds a file for (a copy an older
    /// app carried): never served, since the framework's runtime answers there.
    static func shadowedRuntime(in publicRoot: String) -> [String] {
        (runtimeFiles + ["footlight.js"]).map { "footlight/" + $0 }.filter {
            FileManager.default.fileExists(atPath: publicRoot + "/" + $0)
        }
    }
}
