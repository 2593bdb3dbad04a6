import Foundation

/// Maps request paths to files under the public folder: no path leaves the folder
/// (`..`, symlinks pointing out, NUL bytes), directories serve their `index.html`.
struct StaticFiles: Sendable {
    /// The public folder, absolute and with symlinks resolved.
    let root: String
    /// Whether a path with no file and no dot in its last segment gets the folder's
    /// `index.html` (a page address the app routes itself).
    let fallsBackToPage: Bool

    /// What a request path resolves to.
    enum Resolution: Equatable {
        case file(path: String, contentType: String, cacheControl: String)
        case notFound
    }

    init(root: String, fallsBackToPage: Bool = true) throws(ServerError) {
        self.fallsBackToPage = fallsBackToPage
        guard let resolved = Self.realPath(root) else {
            throw ServerError.configuration("the folder \"\(root)\" does not exist")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ServerError.configuration("\"\(root)\" is not a folder")
        }
        self.root = resolved
    }

    func resolve(_ requestPath: String) -> Resolution {
        let path = requestPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard path.hasPrefix("/"), !path.contains("\0"), !path.contains("\\") else { return .notFound }
        let segments = path.split(separator: "/")
        guard !segments.contains(where: { $0 == ".." || $0 == "." || $0.hasPrefix(".") }) else { return .notFound }
        var candidate = root + "/" + segments.joined(separator: "/")
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory) {
            // A page address the app routes itself ("/lots/7", pushed with the History
            // API) has no file: serve the page, so a reload or a shared link works.
            // Paths that look like files (a dot in the last segment) stay 404.
            guard fallsBackToPage, let last = segments.last, !last.contains(".") else { return .notFound }
            candidate = root
            isDirectory = true
        }
        if isDirectory.boolValue { candidate += "/index.html" }
        // Resolve symlinks and make sure the file is still inside the public folder.
        guard let resolved = Self.realPath(candidate), resolved.hasPrefix(root + "/"),
            FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue
        else { return .notFound }
        let type = Self.contentType(forExtension: (resolved as NSString).pathExtension.lowercased())
        return .file(path: resolved, contentType: type, cacheControl: Self.cacheControl(forContentType: type))
    }

    /// MIME types of the files a Footlight page is made of.
    static func contentType(forExtension fileExtension: String) -> String {
        switch fileExtension {
        case "html", "htm": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json", "map": "application/json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "ico": "image/x-icon"
        case "woff2": "font/woff2"
        case "woff": "font/woff"
        case "txt", "md": "text/plain; charset=utf-8"
        case "wasm": "application/wasm"
        default: "application/octet-stream"
        }
    }

    /// Pages are revalidated on every load, so a deploy shows at once; assets may be
    /// cached briefly (they are not content-hashed).
    static func cacheControl(forContentType type: String) -> String {
        type.hasPrefix("text/html") ? "no-cache" : "public, max-age=300"
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
