import CLibWebSockets

/// One request a route answers, on the loop thread that owns its connection: its body
/// as it is read, the handler's task, and the answer as it is written, one
/// `lws_write` per writeable callback.
///
/// A streamed body is pulled with backpressure: a writer's piece waits here until the
/// socket is writeable (libwebsockets calls back only once what it holds is sent), and
/// the writer resumes only once its piece is written. So the server holds at most two
/// pieces of a body however slowly the client reads.
final class RouteExchange: @unchecked Sendable {
    // @unchecked: every property is touched on the loop's owner thread only; other
    // threads reach the exchange through `loop.execute` (the closures of `delivery`).
    let loop: ServiceLoop
    private let wsi: OpaquePointer
    private let router: Router
    private let job: RouteJob
    private var body: [UInt8] = []
    private var task: Task<Void, Never>?
    private var response: RouteResponse?
    private var headWritten = false
    /// Bytes of a whole body sent so far.
    private var sent = 0
    /// A streamed body's next piece, and the writer waiting for it to go.
    private var piece: (bytes: [UInt8], writer: CheckedContinuation<Void, any Error>)?
    /// How a streamed body ended: nil while it goes on.
    private var streamEnd: Bool?
    private(set) var isClosed = false

    init(loop: ServiceLoop, wsi: OpaquePointer, router: Router, job: RouteJob) {
        self.loop = loop
        self.wsi = wsi
        self.router = router
        self.job = job
        body.reserveCapacity(job.bodyBytes)
    }

    /// Whether the body is still being read.
    var receiving: Bool { task == nil && body.count < job.bodyBytes }

    /// More of the body (libwebsockets gives no more than `Content-Length`).
    func received(_ bytes: UnsafeRawBufferPointer) {
        guard task == nil else { return }
        body.append(contentsOf: bytes.prefix(job.bodyBytes - body.count))
    }

    /// Runs the handler (the body is complete). Once only.
    func start() {
        guard task == nil, !isClosed else { return }
        let seconds = Int(router.limits.timeLimit.components.seconds) + 5
        lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, Int32(clamping: seconds))
        let loop = loop
        let delivery = RouteDelivery(
            respond: { [self] response in loop.execute { self.respond(response) } },
            write: { [self] bytes in
                try await withCheckedThrowingContinuation { writer in
                    if !loop.execute({ self.enqueue(bytes, writer) }) { writer.resume(throwing: CancellationError()) }
                }
            },
            finish: { [self] error in loop.execute { self.finish(error == nil) } })
        task = router.start(job, body: body, delivery: delivery)
        body = []
    }

    private func respond(_ response: RouteResponse) {
        guard !isClosed, self.response == nil else { return }
        self.response = response
        lws_callback_on_writable(wsi)
    }

    private func enqueue(_ bytes: [UInt8], _ writer: CheckedContinuation<Void, any Error>) {
        guard !isClosed, piece == nil, streamEnd == nil else {
            writer.resume(throwing: CancellationError())
            return
        }
        piece = (bytes, writer)
        lws_callback_on_writable(wsi)
    }

    private func finish(_ whole: Bool) {
        guard !isClosed, streamEnd == nil else { return }
        streamEnd = whole
        lws_callback_on_writable(wsi)
    }

    /// The connection closed (or the answer ended): nothing more touches it.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        if loop.routeExchanges[wsi] === self { loop.routeExchanges[wsi] = nil }
        piece?.writer.resume(throwing: CancellationError())
        piece = nil
        if let task { task.cancel() } else { job.place.release() }
    }

    /// LWS_CALLBACK_HTTP_WRITEABLE: writes the next part of the answer; returns what
    /// the callback returns (-1 closes the connection).
    func writeable() -> Int32 {
        guard !isClosed, let response else { return 0 }
        let idle = Int32(clamping: router.limits.idleSeconds)
        if !headWritten {
            headWritten = true
            guard RouteWriting.writeHead(response, on: wsi, isHead: job.isHead, isHTTP10: job.isHTTP10) else {
                router.logger.info("route answer's head could not be written; closing")
                return closing()
            }
            lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, idle)
            if job.isHead { return completed() }
            switch response.body {
            case .bytes(let bytes) where bytes.isEmpty: return completed()
            case .bytes: lws_callback_on_writable(wsi)
            // A stream may last longer than libwebsockets lets a request hold its
            // header buffer (6 minutes): the headers were read, let it go.
            case .stream:
                _ = lws_http_headers_detach(wsi)
                // A piece or the end may have come while the head waited.
                lws_callback_on_writable(wsi)
            }
            return 0
        }
        switch response.body {
        case .bytes(let bytes):
            let end = min(bytes.count, sent + RouteWriting.sliceBytes)
            let last = end == bytes.count
            guard RouteWriting.write(bytes[sent..<end], on: wsi, final: last) else { return closing() }
            sent = end
            lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, idle)
            if last { return completed() }
            lws_callback_on_writable(wsi)
            return 0
        case .stream:
            if let (bytes, writer) = piece {
                piece = nil
                let framed = job.isHTTP10 ? bytes : RouteWriting.chunk(bytes)
                guard RouteWriting.write(framed[...], on: wsi, final: false) else {
                    writer.resume(throwing: CancellationError())
                    return closing()
                }
                lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, idle)
                writer.resume()
                return 0
            }
            switch streamEnd {
            case nil: return 0
            case false?: return closing()
            case true?:
                if job.isHTTP10 { return closing() }
                guard RouteWriting.write(RouteWriting.lastChunk[...], on: wsi, final: true) else { return closing() }
                return completed()
            }
        }
    }

    /// The answer is whole: the connection goes on with its next request, or closes.
    private func completed() -> Int32 {
        close()
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    private func closing() -> Int32 {
        close()
        return -1
    }
}
