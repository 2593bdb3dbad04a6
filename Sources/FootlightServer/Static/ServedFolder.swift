/// A folder a server serves under a path of its own (``ServerConfiguration/servedFolders``):
/// `GET /avatars/3f2a.png` answers with `<directory>/3f2a.png`. As in the public folder, no
/// path leaves the folder; unlike it, a missing file is a 404, never the page.
public struct ServedFolder: Sendable, Equatable {
    /// The path it is served under, starting and ending with "/" (`/avatars/`).
    public var path: String
    /// The folder; it must exist when the server starts.
    public var directory: String
    /// The `Cache-Control` of its files: `immutable` suits files never rewritten under
    /// the same name.
    public var cacheControl: String

    public init(path: String, directory: String, cacheControl: String = "public, max-age=300") {
        self.path = path
        self.directory = directory
        self.cacheControl = cacheControl
    }
}
