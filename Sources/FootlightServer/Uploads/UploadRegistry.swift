import Dispatch
import Footlight
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Every upload of a server: the files under way and done, the single-use tickets
/// that authorise their bytes, and the folder they lie in.
///
/// A session starts an upload (``begin(session:file:limits:deliver:)``) and gets a
/// ticket: the address the page `PUT`s the bytes to. Each ticket serves one request and
/// names the byte it starts from; after a cut the session asks for a new one
/// (``resume(session:id:)``), which also retires every older ticket and request of the
/// upload. Files are named by their upload's id, never by the visitor's name.
package final class UploadRegistry: Sendable {
    struct Upload {
        let session: String
        let file: UploadDescription
        let path: String
        /// Media types the binding accepts, checked against the bytes at the end.
        let limits: UploadLimits
        let deliver: @Sendable (_ id: String, UploadEvent) -> Void
        /// Bytes written so far (of the newest request).
        var received = 0
        /// Raised by each new ticket: requests of older tickets stop.
        var generation = 0
        var lastActivity: ContinuousClock.Instant
        /// `received` when progress was last delivered.
        var reported = 0
        var isDone = false
        var isReceiving = false
    }
    private struct Ticket {
        let upload: String
        let generation: Int
        let offset: Int
        let expires: ContinuousClock.Instant
    }
    private struct State {
        var uploads: [String: Upload] = [:]
        var tickets: [String: Ticket] = [:]
    }
    private let state = Locked(State())
    let configuration: UploadConfiguration
    /// The folder the files lie in.
    let directory: String
    /// Whether the folder was made for this registry (and is removed with it).
    private let ownsDirectory: Bool
    private let signer: SignedIDs
    private let logger: Logger
    // nonisolated(unsafe): set once in init, cancelled in `close`; the timer is
    // thread-safe and only calls `sweep`, which takes the lock.
    nonisolated(unsafe) private let sweeper: DispatchSourceTimer

    package init(configuration: UploadConfiguration, key: [UInt8]?, logger: Logger) throws(ServerError) {
        self.configuration = configuration
        self.logger = logger
        signer = try SignedIDs(key: key, purpose: .upload)
        if let directory = configuration.directory {
            guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
                throw .configuration(
                    "the upload folder \(directory) cannot be made: \(String(cString: strerror(errno)))")
            }
            Self.removeFiles(in: directory)
            self.directory = directory
            ownsDirectory = false
        } else {
            var template = Array("/tmp/footlight-uploads-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else {
                throw .configuration("no temporary upload folder: \(String(cString: strerror(errno)))")
            }
            directory = String(cString: made)
            ownsDirectory = true
        }
        sweeper = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "footlight.uploads.sweeper"))
        let interval = min(Duration.seconds(30), configuration.abandonAfter / 4)
        let nanoseconds = max(
            10_000_000,
            Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000))
        sweeper.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        sweeper.setEventHandler { [weak self] in self?.sweep(now: .now) }
        sweeper.resume()
    }

    /// Stops the sweeps and removes every file (and the folder, when it was made here).
    package func close() {
        sweeper.cancel()
        let uploads = state.withLock { state in
            defer { state = State() }
            return state.uploads.values.map(\.path)
        }
        for path in uploads { unlink(path) }
        if ownsDirectory {
            Self.removeFiles(in: directory)
            rmdir(directory)
        }
    }

    // MARK: What sessions ask

    /// Starts an upload of `file` for `session`, checked against `limits` and the
    /// server's caps; `deliver` gets its progress and end with its id, from the thread
    /// that receives the bytes.
    package func begin(
        session: String, file: UploadDescription, limits: UploadLimits,
        deliver: @escaping @Sendable (_ id: String, UploadEvent) -> Void
    ) throws(UploadError) -> UploadTicket {
        do throws(UploadError) {
            try check(file, against: limits)
            let id = SignedIDs.newID()
            let path = "\(directory)/\(id)"
            let now = ContinuousClock.now
            try state.withLock { state throws(UploadError) in
                let active = state.uploads.values.filter { !$0.isDone }
                guard active.count < configuration.maximumActive else {
                    throw UploadError(
                        .busy, file: file.name, "the server holds \(active.count) unfinished uploads; try again later")
                }
                let ofSession = active.count { $0.session == session }
                guard ofSession < configuration.maximumActivePerSession else {
                    throw UploadError(
                        .busy, file: file.name,
                        "this session has \(ofSession) unfinished uploads, the most it may (\(configuration.maximumActivePerSession))"
                    )
                }
                state.uploads[id] = Upload(
                    session: session, file: file, path: path, limits: limits, deliver: deliver, lastActivity: now)
            }
            let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                state.withLock { _ = $0.uploads.removeValue(forKey: id) }
                throw UploadError(.storage, file: file.name, "the server could not store \"\(file.name)\": \(reason)")
            }
            Glibc.close(descriptor)
            return state.withLock { issueTicket(for: id, in: &$0, now: now) }
        } catch {
            logger.info("upload refused: \(error)", metadata: ["session": "\(session.prefix(8))"])
            throw error
        }
    }

    /// A new ticket for `session`'s unfinished upload `id`, from the bytes the server
    /// holds; older tickets and a request still sending stop counting.
    package func resume(session: String, id: String) throws(UploadError) -> UploadTicket {
        let ticket = state.withLock { state -> UploadTicket? in
            guard let upload = state.uploads[id], upload.session == session, !upload.isDone else { return nil }
            return issueTicket(for: id, in: &state, now: .now)
        }
        guard let ticket else {
            let error = UploadError(.abandoned, file: nil, "this session has no unfinished upload \"\(id)\"")
            logger.info("upload resume refused: \(error)", metadata: ["session": "\(session.prefix(8))"])
            throw error
        }
        return ticket
    }

    /// Ends `session`'s unfinished upload `id` for the page (its file removed, its
    /// tickets void, a request still sending stopped) without telling its binding: the
    /// caller does, in the session's turn. Returns the file's name, or nil when the
    /// session has no such unfinished upload.
    package func cancel(session: String, id: String) -> String? {
        let upload = state.withLock { state -> Upload? in
            guard let upload = state.uploads[id], upload.session == session, !upload.isDone else { return nil }
            state.tickets = state.tickets.filter { $0.value.upload != id }
            return state.uploads.removeValue(forKey: id)
        }
        guard let upload else { return nil }
        unlink(upload.path)
        logger.info(
            "upload of \"\(upload.file.name)\" cancelled by the page", metadata: ["session": "\(session.prefix(8))"])
        return upload.file.name
    }

    /// Forgets upload `id` once its end was delivered: the file is removed (soon, on
    /// another thread) unless the app moved it while it handled ``UploadEvent/finished(_:)``.
    package func release(_ id: String) {
        guard let upload = state.withLock({ $0.uploads.removeValue(forKey: id) }) else { return }
        // Off the session's turn: unlinking a large file frees its cached pages, which
        // took 7 ms for 64 MiB (a loop's whole budget).
        let path = upload.path
        DispatchQueue.global(qos: .utility).async { unlink(path) }
    }

    /// Removes `session`'s uploads and their files (those the app did not move).
    package func sessionEnded(_ session: String) {
        let removed = state.withLock { state -> [Upload] in
            let ids = state.uploads.filter { $0.value.session == session }.map(\.key)
            return ids.compactMap { state.uploads.removeValue(forKey: $0) }
        }
        for upload in removed { unlink(upload.path) }
    }

    /// Removes unfinished uploads whose bytes stopped coming ``UploadConfiguration/abandonAfter``
    /// ago (their Directors are told), and expired tickets.
    func sweep(now: ContinuousClock.Instant) {
        let abandoned = state.withLock { state -> [(String, Upload)] in
            state.tickets = state.tickets.filter { $0.value.expires > now }
            // A finished upload whose end found no session to deliver it to goes too.
            let ids = state.uploads.filter {
                !$0.value.isReceiving && now - $0.value.lastActivity >= configuration.abandonAfter
            }.map(\.key)
            return ids.compactMap { id in state.uploads.removeValue(forKey: id).map { (id, $0) } }
        }
        for (id, upload) in abandoned {
            unlink(upload.path)
            guard !upload.isDone else { continue }
            logger.info(
                "upload of \"\(upload.file.name)\" abandoned", metadata: ["session": "\(upload.session.prefix(8))"])
            upload.deliver(
                id,
                .failed(
                    UploadError(
                        .abandoned, file: upload.file.name,
                        "the upload of \"\(upload.file.name)\" stopped and was given up")))
        }
    }

    /// Unfinished uploads (for tests and counters).
    var activeCount: Int { state.withLock { $0.uploads.values.count { !$0.isDone } } }

    // MARK: What requests ask

    /// A request to `PUT` `contentLength` bytes with ticket `text` (the rest of the
    /// path): the receiver of its bytes, or why it is refused. The ticket is spent either way.
    func receiver(ticket text: String, contentLength: Int?) -> Result<UploadReceiver, HTTPRefusal> {
        guard let ticketID = signer.id(from: text) else {
            logger.info("upload request refused: not a ticket this server issued", metadata: ["status": "403"])
            return .failure(HTTPRefusal(status: 403, "not an upload ticket this server issued"))
        }
        let now = ContinuousClock.now
        let opened = state.withLock { state -> Result<(Upload, Ticket), HTTPRefusal> in
            guard let ticket = state.tickets.removeValue(forKey: ticketID), ticket.expires > now else {
                return .failure(HTTPRefusal(status: 403, "the upload ticket was used or has expired"))
            }
            guard var upload = state.uploads[ticket.upload], !upload.isDone else {
                return .failure(HTTPRefusal(status: 410, "the upload has ended"))
            }
            guard ticket.generation == upload.generation else {
                return .failure(HTTPRefusal(status: 409, "a newer ticket replaced this one"))
            }
            guard let contentLength else {
                return .failure(HTTPRefusal(status: 411, "an upload needs a Content-Length"))
            }
            guard contentLength == upload.file.size - ticket.offset else {
                return .failure(
                    HTTPRefusal(
                        status: 400,
                        "the body must be the file's last \(upload.file.size - ticket.offset) bytes; it has \(contentLength)"
                    ))
            }
            upload.received = ticket.offset
            upload.reported = min(upload.reported, ticket.offset)
            upload.isReceiving = true
            upload.lastActivity = now
            state.uploads[ticket.upload] = upload
            return .success((upload, ticket))
        }
        switch opened {
        case .failure(let refusal):
            logger.info("upload request refused: \(refusal.reason)", metadata: ["status": "\(refusal.status)"])
            return .failure(refusal)
        case .success(let (upload, ticket)):
            let descriptor = Glibc.open(upload.path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0, ftruncate(descriptor, off_t(ticket.offset)) == 0 else {
                let reason = String(cString: strerror(errno))
                if descriptor >= 0 { Glibc.close(descriptor) }
                fail(
                    ticket.upload,
                    UploadError(
                        .storage, file: upload.file.name,
                        "the server could not store \"\(upload.file.name)\": \(reason)"))
                return .failure(HTTPRefusal(status: 500, "the file cannot be written: \(reason)"))
            }
            return .success(
                UploadReceiver(
                    registry: self, id: ticket.upload, generation: ticket.generation, descriptor: descriptor,
                    offset: ticket.offset))
        }
    }

    /// `count` more bytes of upload `id` are written by a request of `generation`:
    /// false when that request no longer counts (a newer ticket, the upload gone).
    func received(_ count: Int, of id: String, generation: Int) -> Bool {
        let progress = state.withLock { state -> (Bool, UploadEvent?) in
            guard var upload = state.uploads[id], upload.generation == generation, !upload.isDone else {
                return (false, nil)
            }
            upload.received += count
            upload.lastActivity = .now
            var event: UploadEvent?
            // At most a hundred reports per file, and none for the last bytes (`finished` says it).
            if upload.received < upload.file.size, upload.received - upload.reported >= max(1, upload.file.size / 100) {
                upload.reported = upload.received
                event = .progress(
                    UploadProgress(id: id, name: upload.file.name, received: upload.received, total: upload.file.size))
            }
            state.uploads[id] = upload
            return (true, event)
        }
        if let event = progress.1 { deliver(event, of: id) }
        if !progress.0 { logger.info("upload request stopped: a newer ticket replaced it, or the upload ended") }
        return progress.0
    }

    /// The request of `generation` sent every byte of upload `id`: checks what arrived
    /// and reports the file, or why it is refused (as an HTTP status and an event).
    func finished(_ id: String, generation: Int, head: [UInt8]) -> HTTPRefusal? {
        let outcome = state.withLock { state -> Result<Upload, HTTPRefusal> in
            guard var upload = state.uploads[id], upload.generation == generation, !upload.isDone else {
                return .failure(HTTPRefusal(status: 409, "a newer ticket replaced this one"))
            }
            guard upload.received == upload.file.size else {
                return .failure(HTTPRefusal(status: 400, "the body ended early"))
            }
            upload.isDone = true
            upload.isReceiving = false
            state.uploads[id] = upload
            return .success(upload)
        }
        let upload: Upload
        switch outcome {
        case .failure(let refusal): return refusal
        case .success(let done): upload = done
        }
        // The bytes decide: a known type they show must be accepted (a GIF named `.png`
        // is taken as the GIF it is, when GIFs are); a known type declared must be shown.
        let declared = upload.file.type.lowercased()
        let found = MediaType.sniffed(head)
        if found.map({ !upload.limits.accepts(type: $0) }) ?? MediaType.known.contains(declared) {
            let error = UploadError(
                .typeNotAccepted, file: upload.file.name,
                "\"\(upload.file.name)\" was declared \(upload.file.type) but its bytes are \(found ?? "not that type's")"
            )
            fail(id, error)
            return HTTPRefusal(status: 415, error.message)
        }
        upload.deliver(
            id,
            .finished(
                UploadedFile(
                    id: id, name: upload.file.name, type: found ?? upload.file.type, size: upload.file.size,
                    path: upload.path)))
        return nil
    }

    /// The request of `generation` stopped before the end (its connection closed): the
    /// bytes written stay for a resume.
    func interrupted(_ id: String, generation: Int) {
        state.withLock { state in
            guard var upload = state.uploads[id], upload.generation == generation else { return }
            upload.isReceiving = false
            upload.lastActivity = .now
            state.uploads[id] = upload
        }
    }

    /// Ends upload `id` with `error`: its file is removed and its Director told.
    func fail(_ id: String, _ error: UploadError) {
        guard let upload = state.withLock({ $0.uploads.removeValue(forKey: id) }) else { return }
        unlink(upload.path)
        logger.info("upload failed: \(error)", metadata: ["session": "\(upload.session.prefix(8))"])
        upload.deliver(id, .failed(error))
    }

    // MARK: Helpers

    private func deliver(_ event: UploadEvent, of id: String) {
        state.withLock { $0.uploads[id]?.deliver }?(id, event)
    }

    private func check(_ file: UploadDescription, against limits: UploadLimits) throws(UploadError) {
        guard !file.name.isEmpty, file.name.utf8.count <= 255, file.size >= 0, file.type.utf8.count <= 255 else {
            throw UploadError(
                .badDescription, file: String(file.name.prefix(64)),
                "a file needs a name and a type of 1 to 255 bytes and a size of 0 or more")
        }
        guard file.size <= limits.maximumBytes else {
            throw UploadError(
                .tooLarge, file: file.name,
                "\"\(file.name)\" has \(file.size) bytes; the most accepted is \(limits.maximumBytes)")
        }
        guard limits.accepts(type: file.type) else {
            let accepted = limits.types.joined(separator: ", ")
            throw UploadError(
                .typeNotAccepted, file: file.name,
                "\"\(file.name)\" is \(file.type.isEmpty ? "of no declared type" : file.type); accepted: \(accepted)")
        }
    }

    private func issueTicket(for id: String, in state: inout State, now: ContinuousClock.Instant) -> UploadTicket {
        state.uploads[id]!.generation += 1
        state.uploads[id]!.lastActivity = now
        let upload = state.uploads[id]!
        // One ticket per upload: a new one retires the older.
        state.tickets = state.tickets.filter { $0.value.upload != id }
        let ticketID = SignedIDs.newID()
        state.tickets[ticketID] = Ticket(
            upload: id, generation: upload.generation, offset: upload.received,
            expires: now + configuration.abandonAfter)
        return UploadTicket(
            id: id, url: UploadConfiguration.path + signer.token(for: ticketID), offset: upload.received)
    }

    private static func removeFiles(in directory: String) {
        guard let folder = opendir(directory) else { return }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            guard name != ".", name != ".." else { continue }
            unlink("\(directory)/\(name)")
        }
    }
}
