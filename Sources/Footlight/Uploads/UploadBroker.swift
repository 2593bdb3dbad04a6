/// The session's side of uploads: the server (or a scene tester) gives one to every
/// stage it shows, and upload bindings start and resume their files through it.
package protocol UploadBroker: AnyObject {
    /// Starts an upload of `file` under `limits` (checked here: it throws the refusal,
    /// already logged). `deliver` gets the upload's later events, on the session's
    /// executor, until it finishes or fails.
    func begin(_ file: UploadDescription, limits: UploadLimits, deliver: @escaping (UploadEvent) -> Void)
        throws(UploadError) -> UploadTicket
    /// A new ticket for this session's unfinished upload `id`, from the bytes the
    /// server holds (after a cut).
    func resume(_ id: String) throws(UploadError) -> UploadTicket
    /// Ends this session's unfinished upload `id` (its file removed, its tickets and
    /// requests void) and hands `error` to its binding at once, in this turn; nothing
    /// when the upload already ended.
    func cancel(_ id: String, with error: UploadError)
}

/// A file as the page describes it when the visitor chooses it.
package struct UploadDescription: Sendable, Equatable {
    package var name: String
    package var size: Int
    package var type: String

    package init(name: String, size: Int, type: String) {
        self.name = name
        self.size = size
        self.type = type
    }
}

/// What the page needs to send a file's bytes: where, and from which byte.
package struct UploadTicket: Sendable, Equatable {
    /// The upload's id.
    package var id: String
    /// The single-use address the bytes go to (`PUT`).
    package var url: String
    /// The bytes the server holds already; the page sends the rest.
    package var offset: Int

    package init(id: String, url: String, offset: Int) {
        self.id = id
        self.url = url
        self.offset = offset
    }
}
