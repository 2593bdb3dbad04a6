import FootlightJSON

/// A stage's address: the path and query the page's address bar shows for it, as a
/// Director's state (a filter, a tab, a page number), and whether a change of it adds
/// a History entry or replaces the current one.
///
/// A stage takes its address from a Director output (``Stage/bindAddress(_:)``) and
/// gets the addresses the visitor goes to with Back, Forward or a link as an input
/// (``Stage/onAddress(send:)``): the stage stays, only its state changes.
///
/// ```swift
/// let address = Address("/active?page=2")  // path "/active", query "page=2"
/// ```
public struct Address: Sendable, Hashable, CustomStringConvertible {
    /// The longest address a page may send, in UTF-8 bytes (the page sends none longer).
    public static let maximumBytes = 2048

    /// The path, starting with "/".
    public var path: String
    /// The query, without its "?" ("" when there is none).
    public var query: String
    /// Whether the change to this address replaces the current History entry instead of
    /// adding one (a correction: an unknown filter shown as "/"), so that Back skips it.
    public var replaces: Bool

    /// An address of `path` and `query`; a change to it adds a History entry unless
    /// `replaces`.
    public init(path: String, query: String = "", replaces: Bool = false) {
        self.path = path
        self.query = query
        self.replaces = replaces
    }

    /// The address `url` names ("/active?page=2": path and query; a fragment is dropped).
    public init(_ url: String, replaces: Bool = false) {
        let withoutFragment = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        self.init(path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : "", replaces: replaces)
    }

    /// The path and query as the address bar shows them: "/active?page=2".
    public var url: String { query.isEmpty ? path : "\(path)?\(query)" }

    public var description: String { url }
}

extension Address: EventValue {
    /// The address a page went to: a string of a path (starting with one "/") and an
    /// optional query, at most ``maximumBytes`` long, with no backslash (a browser reads
    /// one as a slash: `/\host` would name another site).
    public init(eventJSON: JSON) throws(EventValueError) {
        let expected = "an address (a string starting with one \"/\", no backslash, at most \(Self.maximumBytes) bytes)"
        guard case .string(let url) = eventJSON, url.utf8.count <= Self.maximumBytes,
            url.utf8.first == UInt8(ascii: "/"),
            !url.hasPrefix("//"), !url.utf8.contains(UInt8(ascii: "\\"))
        else { throw EventValueError(expected: expected, received: eventJSON) }
        self.init(url)
    }
}
