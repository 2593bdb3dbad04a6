/// What an upload binding accepts (``Stage/upload(_:limits:send:)``). The server checks
/// every limit itself; the page's own checks are only a courtesy to the visitor.
public struct UploadLimits: Sendable, Equatable {
    /// The largest file, in bytes.
    public var maximumBytes: Int
    /// The most files one choice may hold (an `<input type=file multiple>`).
    public var maximumFiles: Int
    /// The media types accepted: exact (`image/png`) or a whole kind (`image/*`); empty
    /// accepts any. The server knows PNG, JPEG, GIF, WebP and PDF by their first bytes: a
    /// file declared as one of them whose bytes are not that type's, or whose bytes are
    /// another of them than declared, is refused once it has arrived.
    public var types: [String]

    /// Limits of `maximumBytes` per file (10 MiB by default), `maximumFiles` per choice,
    /// and `types`.
    public init(maximumBytes: Int = 10 << 20, maximumFiles: Int = 1, types: [String] = []) {
        self.maximumBytes = maximumBytes
        self.maximumFiles = maximumFiles
        self.types = types
    }

    /// Whether `type` is one of ``types``.
    public func accepts(type: String) -> Bool {
        guard !types.isEmpty else { return true }
        let type = type.lowercased()
        return types.contains { accepted in
            let accepted = accepted.lowercased()
            if accepted.hasSuffix("/*") { return type.hasPrefix(accepted.dropLast()) }
            return type == accepted
        }
    }
}
