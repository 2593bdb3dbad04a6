/// How a server takes uploads (``ServerConfiguration/uploads``): where the files lie
/// and how many may be under way. What each upload binding accepts is its own
/// ``UploadLimits``.
public struct UploadConfiguration: Sendable {
    /// The folder uploaded files lie in, made with mode 0700 and emptied at start (what
    /// a previous run left). Nil: a fresh folder under the system's temporary folder,
    /// removed at shutdown.
    public var directory: String?
    /// Unfinished uploads the whole server holds at once; more are refused as
    /// ``UploadError/Kind/busy``.
    public var maximumActive = 256
    /// Unfinished uploads one session holds at once.
    public var maximumActivePerSession = 4
    /// An unfinished upload whose bytes stopped coming this long ago is removed, and its
    /// Director told ``UploadError/Kind/abandoned``; an address given for it (a ticket)
    /// is valid this long.
    public var abandonAfter: Duration = .seconds(600)

    public init() {}

    /// The path under which the server takes uploads' bytes: `PUT` to it plus a ticket.
    public static let path = "/_footlight/upload/"
}
