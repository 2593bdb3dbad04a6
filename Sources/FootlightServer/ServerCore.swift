import CLibWebSockets
import Footlight
import FootlightJSON
import Logging

/// The server's decisions, called by the loops' callbacks on their threads: which
/// upgrades to accept, which files to serve, and where client messages go.
final class ServerCore: LoopDelegate {
    let configuration: ServerConfiguration
    let files: StaticFiles
    let registry: SessionRegistry
    private var logger: Logger { configuration.logger }

    init(configuration: ServerConfiguration, files: StaticFiles, registry: SessionRegistry) {
        self.configuration = configuration
        self.files = files
        self.registry = registry
    }

    var maximumMessageBytes: Int { configuration.maximumMessageBytes }

    // MARK: Handshake

    func confirmUpgrade(_ request: UpgradeRequest) -> UpgradeDecision {
        let decision = OriginPolicy(allowed: configuration.allowedOrigins).decide(
            request, webSocketPath: configuration.webSocketPath, echoPath: configuration.echoPath)
        if case .refuse(let status, let reason) = decision {
            logger.notice(
                "refused WebSocket handshake: \(reason)",
                metadata: ["status": "\(status)", "origin": "\(request.origin ?? "none")", "path": "\(request.path)"])
        }
        return decision
    }

    // MARK: HTTP

    func serveHTTP(wsi: OpaquePointer, path: String) -> Int32 {
        switch files.resolve(path) {
        case .notFound:
            logger.debug("404 \(path)")
            lws_return_http_status(wsi, UInt32(HTTP_STATUS_NOT_FOUND.rawValue), nil)
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        case .file(let file, let contentType, let cacheControl):
            var headers = [UInt8](repeating: 0, count: 512)
            let length = headers.withUnsafeMutableBufferPointer { buffer -> Int in
                var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
                let end = buffer.baseAddress! + buffer.count
                addHeader(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL, cacheControl, &cursor, end)
                addHeader(wsi, name: "x-content-type-options:", "nosniff", &cursor, end)
                return cursor.map { $0 - buffer.baseAddress! } ?? 0
            }
            let status = headers.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: length) {
                    lws_serve_http_file(wsi, file, contentType, $0, Int32(length))
                }
            }
            if status < 0 || (status > 0 && lws_http_transaction_completed(wsi) != 0) { return -1 }
            return 0
        }
    }

    // MARK: WebSocket

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
        switch decoded {
        case .ping:
            connection.sendNow([.pong])
        case .report(let stage, let message):
            guard let session else {
                reply(connection, ProtocolError(.notJoined, "send join before reports"))
                return
            }
            session.queue.async { session.report(stage: stage, message: message) }
        case .join(_, let resume, let path):
            guard session == nil else {
                reply(connection, ProtocolError(.alreadyJoined, "this connection has already joined a session"))
                return
            }
            var target: Session?
            if let resume {
                target = registry.session(for: resume.token)
                if target == nil {
                    reply(
                        connection,
                        ProtocolError(.unknownSession, "the session expired or never existed; starting a new one"))
                }
            }
            let joined = target ?? registry.create()
            connection.attachment = SessionLink(session: joined)
            let handle = connection.handle
            let lastSeq = target == nil ? nil : resume?.lastSeq
            joined.queue.async { joined.attach(handle, resumeAfter: lastSeq, path: path) }
        case .event(let event):
            guard let session else {
                reply(connection, ProtocolError(.notJoined, "send join before events", eventNumber: event.number))
                return
            }
            session.queue.async { session.receive(event) }
        case .ack(let seq):
            guard let session else {
                reply(connection, ProtocolError(.notJoined, "send join before acks"))
                return
            }
            session.queue.async { session.acknowledge(seq: seq) }
        }
    }

    func closed(_ connection: Connection) {
        logger.trace("connection \(connection.id) closed")
        guard let session = (connection.attachment as? SessionLink)?.session else { return }
        connection.attachment = nil
        let handle = connection.handle
        session.queue.async { session.detach(handle) }
    }

    private func reply(_ connection: Connection, _ error: ProtocolError) {
        logger.info("bad client message: \(error)", metadata: ["connection": "\(connection.id)"])
        connection.sendNow([.error(error)])
    }
}

/// Ties a connection to its session (the connection's attachment).
final class SessionLink {
    let session: Session
    init(session: Session) { self.session = session }
}

extension Connection {
    /// Sends advisory messages from the loop thread itself.
    func sendNow(_ messages: [ServerMessage]) {
        let frames = messages.compactMap { message in
            (try? message.encoded(headroom: OutboundFrame.headroom)).map(OutboundFrame.init(storageWithHeadroom:))
        }
        handle.addPending(frames.reduce(0) { $0 + $1.count })
        enqueue(frames)
    }
}

private func addHeader(
    _ wsi: OpaquePointer, _ token: lws_token_indexes, _ value: String, _ cursor: inout UnsafeMutablePointer<UInt8>?,
    _ end: UnsafeMutablePointer<UInt8>
) {
    var value = Array(value.utf8)
    _ = lws_add_http_header_by_token(wsi, token, &value, Int32(value.count), &cursor, end)
}

private func addHeader(
    _ wsi: OpaquePointer, name: String, _ value: String, _ cursor: inout UnsafeMutablePointer<UInt8>?,
    _ end: UnsafeMutablePointer<UInt8>
) {
    var value = Array(value.utf8)
    _ = lws_add_http_header_by_name(wsi, name, &value, Int32(value.count), &cursor, end)
}
