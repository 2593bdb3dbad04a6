import Crypto
import Footlight
import Foundation

/// Why a prepared copy of a public file could not be made (the file is then sent as it is).
struct AssetError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What the server sends for a public file, prepared once per version of the file: the
/// browser runtime (the framework's, never the public folder's) as one response at a
/// content-hashed address (cached for a year as immutable), pages whose reference to that
/// bundle names the hashed address, and gzip copies of text files for browsers that accept
/// gzip.
///
/// Prepared copies live in a private temporary folder (removed with the server) and are
/// keyed by each source's size and modification time, so a file edited while the server
/// runs is prepared again on its next request. Nothing runs at build time: no Node, no
/// bundler; the bundle is the runtime's files joined in their load order.
final class StaticAssets: Sendable {
    /// The bundle's stable address, which pages name; served pages name the hashed one.
    static let bundlePath = "/footlight/footlight.js"
    /// Text smaller than this goes uncompressed (gzip's header would outweigh the saving).
    static let smallestCompressed = 256

    /// A file to send and how.
    struct Variant: Equatable {
        let path: String
        let contentType: String
        let cacheControl: String
        /// `gzip` for a compressed copy, else nil.
        let contentEncoding: String?
    }

    private struct Source: Hashable {
        let path: String
        let size: Int
        let modified: TimeInterval
    }

    private struct Bundle {
        let sources: [Source]
        let hash: String
        /// The prepared file.
        let file: String
    }

    private struct State {
        var bundle: Bundle?
        /// Prepared copies by what they were made from.
        var prepared: [String: String] = [:]
    }

    let root: String
    /// The folder of the runtime's files (``runtimeFiles``): the framework's own.
    let runtime: String
    let folder: String
    /// The development channel pages listen to, and the development script's file, in
    /// development mode (StaticAssets+Development.swift); nil otherwise.
    let development: (channel: String, script: String)?
    private let state = Locked(State())

    /// Prepares copies of the files under `root` (absolute, symlinks resolved) and of the
    /// runtime in `runtime` (the framework's unless a test says otherwise) in a new private
    /// folder under the system's temporary folder. With a `developmentChannel`, pages name the
    /// development script, which listens to it.
    init(root: String, runtime: String? = nil, developmentChannel: String? = nil) throws(ServerError) {
        self.root = root
        if let developmentChannel {
            development = (developmentChannel, try Self.developmentScript())
        } else {
            development = nil
        }
        if let runtime { self.runtime = runtime } else { self.runtime = try Self.runtimeFolder() }
        for name in Self.runtimeFiles where !FileManager.default.fileExists(atPath: self.runtime + "/" + name) {
            throw ServerError.configuration("the browser runtime's \(name) is missing from \(self.runtime)")
        }
        let folder = NSTemporaryDirectory() + "footlight-assets-\(getpid())-\(UUID().uuidString.prefix(8))"
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ServerError.configuration("cannot create a folder for prepared files at \(folder): \(error)")
        }
        self.folder = folder
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// What to send for the runtime at `requestPath`: the bundle at its stable or its hashed
    /// address, or one of its files by name (`/footlight/patch.js`), always the framework's;
    /// nil for any other path. An out-of-date hash (a page from before a deploy) gets today's
    /// bundle, uncached.
    func runtimeVariant(for requestPath: String, acceptsGzip: Bool) throws(AssetError) -> Variant? {
        if let development, requestPath == Self.developmentScriptPath {
            return Variant(
                path: development.script, contentType: StaticFiles.contentType(forExtension: "js"),
                cacheControl: "no-cache", contentEncoding: nil)
        }
        if let name = Self.runtimeFile(at: requestPath) {
            let type = StaticFiles.contentType(forExtension: "js")
            let plain = Variant(
                path: runtime + "/" + name, contentType: type,
                cacheControl: StaticFiles.cacheControl(forContentType: type), contentEncoding: nil)
            return acceptsGzip ? try compressed(plain) ?? plain : plain
        }
        let prefix = "/footlight/footlight."
        guard requestPath.hasPrefix(prefix), requestPath.hasSuffix(".js") else { return nil }
        let bundle = try bundle()
        let current = requestPath == bundle.path
        guard current || requestPath == Self.bundlePath || requestPath.dropFirst(prefix.count).count == 19 else {
            return nil
        }
        let plain = Variant(
            path: bundle.file, contentType: StaticFiles.contentType(forExtension: "js"),
            cacheControl: current ? "public, max-age=31536000, immutable" : "no-cache", contentEncoding: nil)
        if acceptsGzip, let gzip = try compressed(plain) { return gzip }
        return plain
    }

    /// What to send for the public file at `path`: a page with the bundle's hashed
    /// address, and a gzip copy of text when the browser accepts it.
    func variant(path: String, contentType: String, cacheControl: String, acceptsGzip: Bool) throws(AssetError)
        -> Variant
    {
        var variant = Variant(path: path, contentType: contentType, cacheControl: cacheControl, contentEncoding: nil)
        if contentType.hasPrefix("text/html") {
            let hashed = try bundle().path
            let development = development?.channel
            // The key names the bundle too: the page is made again when either changes.
            variant =
                try prepared(from: [try source(path)], name: "html", for: hashed + (development ?? "")) { bytes in
                    let page = String(decoding: bytes[0], as: UTF8.self).replacingOccurrences(
                        of: Self.bundlePath, with: hashed)
                    return Array((development.map { Self.addingDevelopmentTag(to: page, channel: $0) } ?? page).utf8)
                }.map { Variant(path: $0, contentType: contentType, cacheControl: cacheControl, contentEncoding: nil) }
                ?? variant
        }
        if acceptsGzip, Self.isText(contentType), let gzip = try compressed(variant) { return gzip }
        return variant
    }

    // MARK: Preparing

    /// Whether a file of `contentType` is sent gzip-compressed to browsers that accept it.
    static func isText(_ contentType: String) -> Bool {
        contentType.hasPrefix("text/") || contentType.hasPrefix("application/json")
            || contentType.hasPrefix("image/svg")
    }

    /// The gzip copy of `variant`'s file, or nil when it is too small to gain.
    private func compressed(_ variant: Variant) throws(AssetError) -> Variant? {
        let file = try source(variant.path)
        guard file.size >= Self.smallestCompressed else { return nil }
        let path = try prepared(from: [file], name: "gz") { bytes throws(AssetError) in try Gzip.compress(bytes[0]) }
        return path.map {
            Variant(
                path: $0, contentType: variant.contentType, cacheControl: variant.cacheControl, contentEncoding: "gzip")
        }
    }

    /// The bundle of today's runtime files, made again when one of them changed.
    private func bundle() throws(AssetError) -> (hash: String, path: String, file: String) {
        let paths = Self.runtimeFiles.map { runtime + "/" + $0 }
        var sources: [Source] = []
        for path in paths { sources.append(try source(path)) }
        if let bundle = state.withLock({ $0.bundle }), bundle.sources == sources {
            return (bundle.hash, "/footlight/footlight.\(bundle.hash).js", bundle.file)
        }
        var joined: [UInt8] = []
        for path in paths { joined += try read(path) + [UInt8(ascii: "\n")] }
        let hash = SHA256.hash(data: joined).map { String(format: "%02x", $0) }.joined().prefix(16)
        let file = folder + "/footlight.\(hash).js"
        try write(joined, to: file)
        state.withLock { $0.bundle = Bundle(sources: sources, hash: String(hash), file: file) }
        return (String(hash), "/footlight/footlight.\(hash).js", file)
    }

    /// A copy made by `make` from the contents of `sources` (and `context`, whatever else
    /// it depends on), kept while they are unchanged.
    private func prepared(
        from sources: [Source], name: String, for context: String = "",
        _ make: ([[UInt8]]) throws(AssetError) -> [UInt8]
    ) throws(AssetError) -> String? {
        let key = "\(name) \(context) " + sources.map { "\($0.path) \($0.size) \($0.modified)" }.joined(separator: " ")
        if let path = state.withLock({ $0.prepared[key] }) { return path }
        var contents: [[UInt8]] = []
        for source in sources { contents.append(try read(source.path)) }
        let made = try make(contents)
        let digest = SHA256.hash(data: Array(key.utf8)).map { String(format: "%02x", $0) }.joined().prefix(24)
        let path = folder + "/\(digest).\(name)"
        try write(made, to: path)
        state.withLock { $0.prepared[key] = path }
        return path
    }

    private func source(_ path: String) throws(AssetError) -> Source {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw AssetError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        let modified = TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9
        return Source(path: path, size: Int(info.st_size), modified: modified)
    }

    private func read(_ path: String) throws(AssetError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw AssetError("cannot read \(path)") }
        return Array(data)
    }

    private func write(_ bytes: [UInt8], to path: String) throws(AssetError) {
        // Written beside and renamed, so that a file being sent is never half-written.
        let partial = path + ".partial-\(UUID().uuidString.prefix(8))"
        guard FileManager.default.createFile(atPath: partial, contents: Data(bytes)), rename(partial, path) == 0 else {
            try? FileManager.default.removeItem(atPath: partial)
            throw AssetError("cannot write a prepared file in \(folder)")
        }
    }
}
