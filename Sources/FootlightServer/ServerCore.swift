import Footlight
import FootlightJSON
import Logging

/// The server's decisions, called by the loops' callbacks on their threads: which
/// upgrades to accept, which files to serve, and where client messages go.
final class ServerCore: LoopDelegate {
    let configuration: ServerConfiguration
    let files: StaticFiles
    /// The served folders, with their paths and caching.
    let folders: [(folder: ServedFolder, files: StaticFiles)]
    let assets: StaticAssets
    let registry: SessionRegistry
    let visitors: VisitorCookies
    /// The app's HTTP routes (nil when it has none).
    let router: Router?
    /// Pages' first content (``FirstContentConfiguration``).
    let firstContent: FirstContent
    private var logger: Logger { configuration.logger }

    init(
        configuration: ServerConfiguration, files: StaticFiles, assets: StaticAssets, registry: SessionRegistry,
        visitors: VisitorCookies
    ) throws(ServerError) {
        self.configuration = configuration
        self.files = files
        folders = try configuration.servedFolders.map { folder throws(ServerError) in
            guard folder.path.hasPrefix("/"), folder.path.hasSuffix("/"), folder.path.count > 2 else {
                throw .configuration("a served folder's path starts and ends with \"/\"; \"\(folder.path)\" does not")
            }
            return (folder, try StaticFiles(root: folder.directory, fallsBackToPage: false))
        }
        self.assets = assets
        self.registry = registry
        self.visitors = visitors
        router = configuration.routes.all.isEmpty ? nil : try Router(configuration: configuration, visitors: visitors)
        firstContent = FirstContent(
            configuration: configuration.firstContent, registry: registry, folder: assets.folder,
            logger: configuration.logger)
    }

    var maximumMessageBytes: Int { configuration.maximumMessageBytes }

    // MARK: Handshake

    func confirmUpgrade(_ request: UpgradeRequest) -> UpgradeDecision {
        let decision = OriginPolicy(
            allowed: configuration.allowedOrigins, scheme: configuration.tls == nil ? "http" : "https"
        ).decide(
            request, webSocketPath: configuration.webSocketPath, echoPath: configuration.echoPath)
        if case .refuse(let status, let reason) = decision {
            logger.notice(
                "refused WebSocket handshake: \(reason)",
                metadata: ["status": "\(status)", "origin": "\(request.origin ?? "none")", "path": "\(request.path)"])
        }
        return decision
    }

    // MARK: HTTP

    func answerHTTP(_ request: HTTPRequest) -> HTTPAnswer {
        if request.isPut, request.path.hasPrefix(UploadConfiguration.path) {
            let ticket = String(request.path.dropFirst(UploadConfiguration.path.count))
            switch registry.uploads.receiver(ticket: ticket, contentLength: request.contentLength) {
            case .success(let receiver): return .receive(receiver)
            case .failure(let refusal): return .refuse(refusal)
            }
        }
        guard request.readsOnly else {
            logger.debug("405 \(request.path): not GET or HEAD")
            return .methodNotAllowed
        }
        let answer = answer(path: request.path, acceptsGzip: request.acceptsGzip)
        guard case .file(let file, let type, let cache, let encoding, let varies, nil) = answer,
            type.hasPrefix("text/html")
        else { return answer }
        // A page names its visitor: a browser without a cookie this server signed gets one.
        let known = visitors.visitor(in: CookieHeader.values(request.cookie)) != nil
        let setCookie = known ? nil : visitors.newCookie()
        if let first = firstContentAnswer(request, setCookie: setCookie) { return first }
        guard let setCookie else { return answer }
        // `private`: no shared cache may keep a response that names a visitor.
        return .file(
            path: file, contentType: type, cacheControl: "private, " + cache, contentEncoding: encoding,
            varies: varies, setCookie: setCookie)
    }

    private func answer(path: String, acceptsGzip: Bool) -> HTTPAnswer {
        let route = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        if route == configuration.webSocketPath || route == configuration.echoPath {
            // A WebSocket endpoint asked for without an upgrade: not a page.
            logger.debug("426 \(path): a WebSocket endpoint without an upgrade")
            return .status(426, message: "this is a WebSocket endpoint")
        }
        if let (folder, files) = folders.first(where: { route.hasPrefix($0.folder.path) }) {
            guard
                case .file(let file, let contentType, _) = files.resolve(String(route.dropFirst(folder.path.count - 1)))
            else {
                logger.debug("404 \(path)")
                return .status(404, message: nil)
            }
            return .file(
                path: file, contentType: contentType, cacheControl: folder.cacheControl, contentEncoding: nil,
                varies: false)
        }
        do {
            if let runtime = try assets.runtimeVariant(for: route, acceptsGzip: acceptsGzip) { return answer(runtime) }
        } catch {
            logger.error("500 \(path): the runtime could not be prepared: \(error)")
            return .status(500, message: nil)
        }
        switch files.resolve(path) {
        case .notFound:
            logger.debug("404 \(path)")
            return .status(404, message: nil)
        case .file(let file, let contentType, let cacheControl):
            do {
                return answer(
                    try assets.variant(
                        path: file, contentType: contentType, cacheControl: cacheControl, acceptsGzip: acceptsGzip))
            } catch {
                // The file as it is on disk rather than nothing.
                logger.error("\(path): sent unprepared: \(error)")
                return .file(
                    path: file, contentType: contentType, cacheControl: cacheControl, contentEncoding: nil,
                    varies: false)
            }
        }
    }

    private func answer(_ variant: StaticAssets.Variant) -> HTTPAnswer {
        .file(
            path: variant.path, contentType: variant.contentType, cacheControl: variant.cacheControl,
            contentEncoding: variant.contentEncoding, varies: StaticAssets.isText(variant.contentType))
    }

    // MARK: WebSocket

    /// What the app sees of a new session's upgrade request (its path comes with the join).
    private func sessionRequest(_ request: ConnectionRequest) -> SessionRequest {
        let cookies = CookieHeader.values(request.cookie)
        return SessionRequest(
            visitor: visitors.visitor(in: cookies), cookies: cookies, headers: request.headers,
            address: request.address)
    }

    func opened(_ connection: Connection) {
        logger.trace("connection \(connection.id) opened")
    }

    func received(_ message: UnsafeRawBufferPointer, binary: Bool, on connection: Connection) {
        if connection.kind == .echo {
            var frame = OutboundFrame(payload: message)
            frame.isBinary = binary
            connection.handle.addPending(frame.count)
            connection.enqueue([frame])
            return
        }
        guard !binary else {
            reply(connection, ProtocolError(.badMessage, "binary frames are not part of the protocol; send JSON text"))
            return
        }
        let decoded: ClientMessage
        do {
            decoded = try ClientMessage(bytes: message)
        } catch {
            reply(connection, error)
            return
        }
        let session = (connection.attachment as? SessionLink)?.session
        let handle = connection.handle
        let loop = handle.loop
        switch decoded {
        case .ping:
            connection.sendAdvisory(.pong, highWater: configuration.sessionLimits.outboxHighWater)
        case .report(let stage, let message):
            guard let session else {
                reply(connection, ProtocolError(.notJoined, "send join before reports"))
                return
            }
            let done = handOver(from: connection)
            loop.afterService { session.report(stage: stage, message: message, from: loop, then: done) }
        case .join(_, let resume, let path, let restore, let refusedRestore):
            guard session == nil else {
                reply(connection, ProtocolError(.alreadyJoined, "this connection has already joined a session"))
                return
            }
            // The join goes on without it: a page refused here would never get back in.
            if let refusedRestore { reply(connection, refusedRestore) }
            var target: SessionDriver?
            if let resume {
                target = registry.session(for: resume.token)
                // With `restore`, an unknown token is expected (a restart, another node):
                // `joined` says the session was rebuilt.
                if target == nil, restore == nil {
                    reply(
                        connection,
                        ProtocolError(.unknownSession, "the session expired or never existed; starting a new one"))
                }
            }
            guard let joined = target ?? registry.create(on: loop, request: sessionRequest(connection.request)) else {
                connection.sendAdvisory(.bye(reason: "the server is shutting down"), highWater: .max)
                connection.requestClose(code: 1001, reason: "server shutting down")
                return
            }
            connection.attachment = SessionLink(session: joined)
            let lastSeq = target == nil ? nil : resume?.lastSeq
            let restoring = target == nil ? restore : nil
            loop.afterService { joined.attach(handle, resumeAfter: lastSeq, path: path, restore: restoring) }
        case .event(let event):
            guard let session else {
                reply(connection, ProtocolError(.notJoined, "send join before events", eventNumber: event.number))
                return
            }
            let done = handOver(from: connection)
            loop.afterService { session.receive(event, from: loop, then: done) }
        case .ack(let seq):
            guard let session else {
                reply(connection, ProtocolError(.notJoined, "send join before acks"))
                return
            }
            let done = handOver(from: connection)
            loop.afterService { session.acknowledge(seq: seq, from: loop, then: done) }
        }
    }

    func closed(_ connection: Connection) {
        logger.trace("connection \(connection.id) closed")
        guard let session = (connection.attachment as? SessionLink)?.session else { return }
        connection.attachment = nil
        session.detach(connection.handle)
    }

    /// Counts a message handed to its session; returns what to call once the session
    /// has handled it. A connection whose session has fallen behind by
    /// ``ServerConfiguration/maximumQueuedMessages`` stops being read until the session
    /// catches up, so no queue grows without bound (the client's own socket buffers
    /// fill instead, and its sends block).
    private func handOver(from connection: Connection) -> @Sendable () -> Void {
        let handle = connection.handle
        let limit = configuration.maximumQueuedMessages
        let (queued, pause) = handle.handOver(limit: limit)
        handle.loop.recordQueuedMessages(queued)
        if pause { connection.pauseReading() }
        return {
            if handle.handled(limit: limit) {
                let loop = handle.loop
                let id = handle.id
                if loop.inLoop {
                    loop.connection(id)?.resumeReading()
                } else {
                    loop.execute { loop.connection(id)?.resumeReading() }
                }
            }
        }
    }

    /// Refuses a message: the details go to the log, and to the client only when
    /// ``ServerConfiguration/sendsErrorDetails`` is on.
    private func reply(_ connection: Connection, _ error: ProtocolError) {
        let sent = configuration.sendsErrorDetails ? error : error.withoutDetails()
        if connection.sendAdvisory(.error(sent), highWater: configuration.sessionLimits.outboxHighWater) {
            logger.info("bad client message: \(error)", metadata: ["connection": "\(connection.id)"])
        }
    }
}

/// Ties a connection to its session (the connection's attachment).
final class SessionLink {
    let session: SessionDriver
    init(session: SessionDriver) { self.session = session }
}

extension Connection {
    /// Sends an advisory message (an error, a pong) from the loop thread itself, unless
    /// the client is not reading: above `highWater` unsent bytes it is dropped, so a
    /// client that sends garbage and never reads cannot grow the server's memory.
    /// Returns whether it was sent.
    @discardableResult
    func sendAdvisory(_ message: ServerMessage, highWater: Int) -> Bool {
        guard handle.unsentBytes <= highWater, let bytes = try? message.encoded() else { return false }
        let frame = OutboundFrame(payload: bytes)
        handle.addPending(frame.count)
        enqueue([frame])
        return true
    }
}
