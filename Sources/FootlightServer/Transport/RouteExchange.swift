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
    /// What is left to write of the piece being written (HTTP/2 writes a piece in frames
    /// its flow control allows), and its writer, resumed once it is all written.
    private var outgoing: (bytes: ArraySlice<UInt8>, writer: CheckedContinuation<Void, any Error>)?
    /// How a streamed body ended: nil while it goes on.
    private var streamEnd: Bool?
    private(set) var isClosed = false
    /// HTTP/2: the last frame is written; the stream ends once it has gone.
    private var lastFrameWritten = false

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
        outgoing?.writer.resume(throwing: CancellationError())
        outgoing = nil
        if let task { task.cancel() } else { job.place.release() }
    }

    /// LWS_CALLBACK_HTTP_WRITEABLE: writes the next part of the answer; returns what
    /// the callback returns (-1 closes the connection).
    func writeable() -> Int32 {
        guard !isClosed, let response else { return 0 }
        if lastFrameWritten { return completed() }
        let idle = Int32(clamping: router.limits.idleSeconds)
        if !headWritten {
            headWritten = true
            guard RouteWriting.writeHead(response, on: wsi, job: job) else {
                router.logger.info("route answer's head could not be written; closing")
                return closing()
            }
            lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, idle)
            if job.isHead {
                // HTTP/2 ends the stream with an empty last DATA frame, written next.
                guard job.isHTTP2 else { return completed() }
                self.response?.body = .bytes([])
                lws_callback_on_writable(wsi)
                return 0
            }
            switch response.body {
            case .bytes(let bytes) where bytes.isEmpty && !job.isHTTP2: return completed()
            case .bytes: lws_callback_on_writable(wsi)
            // A stream may last longer than libwebsockets lets a request hold its
            // header buffer (6 minutes): the headers were read, let it go.
            case .stream:
                if !job.isHTTP2 { _ = lws_http_headers_detach(wsi) }
                // A piece or the end may have come while the head waited.
                lws_callback_on_writable(wsi)
            }
            return 0
        }
        switch response.body {
        case .bytes(let bytes):
            let allowed = writeAllowance(RouteWriting.sliceBytes)
            guard allowed > 0 || bytes.isEmpty else { return waitForCredit() }
            let end = min(bytes.count, sent + allowed)
            let last = end == bytes.count
            guard RouteWriting.write(bytes[sent..<end], on: wsi, final: last) else { return closing() }
            sent = end
            lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, idle)
            if last { return completed() }
            lws_callback_on_writable(wsi)
            return 0
        case .stream:
            if outgoing == nil, let (bytes, writer) = piece {
                piece = nil
                outgoing = (job.isHTTP10 || job.isHTTP2 ? bytes[...] : RouteWriting.chunk(bytes)[...], writer)
            }
            if let (bytes, writer) = outgoing {
                let allowed = writeAllowance(.max)
                guard allowed > 0 else { return waitForCredit() }
                let count = min(bytes.count, allowed)
                guard RouteWriting.write(bytes.prefix(count), on: wsi, final: false) else { return closing() }
                lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, idle)
                if count < bytes.count {
                    outgoing = (bytes.dropFirst(count), writer)
                    lws_callback_on_writable(wsi)
                } else {
                    outgoing = nil
                    writer.resume()
                }
                return 0
            }
            switch streamEnd {
            case nil: return 0
            case false?: return closing()
            case true?:
                if job.isHTTP10 { return closing() }
                let last = job.isHTTP2 ? [] : RouteWriting.lastChunk
                guard RouteWriting.write(last[...], on: wsi, final: true) else { return closing() }
                return completed()
            }
        }
    }

    /// The most bytes one write may take: `limit` on HTTP/1; on HTTP/2 a frame (16 KiB)
    /// within the peer's flow-control window (0: wait for it to open).
    private func writeAllowance(_ limit: Int) -> Int {
        guard job.isHTTP2 else { return limit }
        let window = lws_get_peer_write_allowance(wsi)
        return window < 0 ? min(limit, 16 << 10) : min(limit, 16 << 10, Int(window))
    }

    /// An HTTP/2 window that is closed: libwebsockets calls back once the peer opens it.
    private func waitForCredit() -> Int32 {
        lws_callback_on_writable(wsi)
        return 0
    }

    /// The answer is whole: the connection goes on with its next request, or closes.
    /// On HTTP/2 the stream ends in the next writeable callback, once libwebsockets has
    /// sent the last frame (ended at once, the frame was seen lost).
    private func completed() -> Int32 {
        if job.isHTTP2, !lastFrameWritten {
            lastFrameWritten = true
            lws_callback_on_writable(wsi)
            return 0
        }
        close()
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    private func closing() -> Int32 {
        close()
        return -1
    }
}
