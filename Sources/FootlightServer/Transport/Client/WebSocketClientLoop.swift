import CLibWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// A libwebsockets client context and the connections made on it, confined to the
/// one thread that services it (not `Sendable`: it must not leave that thread).
///
/// There are two ways to get one:
/// - ``init(wakeInterval:)`` on the thread that will service it with
///   ``serviceOnce()``: a single-threaded program such as the load generator, which
///   drives the loop and its own bookkeeping on one thread with no hand-over;
/// - ``WebSocketClientThread``, which services it on a thread of its own and hands it
///   to work posted with ``WebSocketClientThread/execute(_:)`` (the test client).
///
/// ```swift
/// let loop = try WebSocketClientLoop()
/// let connection = WebSocketClientConnection(on: loop, delegate: self)
/// connection.connect(host: "127.0.0.1", port: port, path: "/ws", subprotocol: "footlight.v1")
/// while !done { try loop.serviceOnce() }
/// loop.stop()
/// ```
package final class WebSocketClientLoop {
    /// The name of the client protocol in the context's protocol table.
    static let protocolName = "footlight-client"

    /// The context; nil once stopped.
    private(set) var context: OpaquePointer?
    /// The protocol table and retry policy the context points into.
    private let resources: ContextResources
    /// The retry policy connections use: no libwebsockets liveness checks.
    var retryPolicy: UnsafePointer<lws_retry_bo_t> { UnsafePointer(resources.retryPolicy) }
    /// The thread that created the loop and alone may touch it.
    private let thread: pthread_t
    /// Whether the creating thread services the loop (and owns the context), rather
    /// than a ``ServiceLoop``.
    private let servicedByCaller: Bool
    /// Wakes ``serviceOnce()`` periodically; only when the caller services the loop.
    private let wakeTimer: WakeTimer?
    /// Headroom and payload for ``WebSocketClientConnection/write(_:isBinary:)``,
    /// reused for every such write on this loop. Unchecked for exclusivity as the
    /// connection's state is, for the same reasons (one thread, no nested access).
    @exclusivity(unchecked) private var frameBuffer: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var frameBufferPayloadCapacity = 1024

    /// Creates a client context on the calling thread, which then services it with
    /// ``serviceOnce()`` and ends it with ``stop()``. `serviceOnce()` returns at least
    /// every `wakeInterval`, so the caller gets to check its clock with no traffic.
    package convenience init(wakeInterval: Duration = .milliseconds(5)) throws(WebSocketClientError) {
        try self.init(serviceLoop: nil, wakeInterval: wakeInterval)
    }

    /// Creates the context on the calling thread. `serviceLoop` is the user pointer of
    /// the ``ServiceLoop`` that services it (nil: the caller does, woken every
    /// `wakeInterval`).
    init(serviceLoop: UnsafeMutableRawPointer?, wakeInterval: Duration = .milliseconds(5)) throws(WebSocketClientError)
    {
        System.raiseOpenFileLimit()
        LibWebSocketsLog.install()
        thread = pthread_self()
        resources = ContextResources(
            protocols: [
                .init(
                    name: Self.protocolName, callback: webSocketClientCallback, perSessionDataSize: 0,
                    rxBufferSize: 4096)
            ])
        frameBuffer = .allocate(
            byteCount: OutboundFrame.headroom + frameBufferPayloadCapacity, alignment: MemoryLayout<UInt64>.alignment)
        var info = lws_context_creation_info()
        info.port = footlight_lws_port_no_listen()
        info.protocols = UnsafePointer(resources.protocols)
        // The ServiceLoop that services the context (nil: the caller), as on a server context.
        info.user = serviceLoop
        // Send the Origin header exactly as given (lws would otherwise prefix "http://").
        info.options = UInt64(LWS_SERVER_OPTION_JUST_USE_RAW_ORIGIN) | UInt64(LWS_SERVER_OPTION_DISABLE_IPV6)
        guard let context = lws_create_context(&info) else {
            frameBuffer.deallocate()
            throw .contextNotCreated
        }
        self.context = context
        servicedByCaller = serviceLoop == nil
        wakeTimer = servicedByCaller ? WakeTimer(interval: wakeInterval, on: context) : nil
    }

    deinit {
        // Every connection libwebsockets still holds keeps its loop alive, so no
        // callback can reach a connection from here.
        if servicedByCaller { stop() }
        frameBuffer.deallocate()
    }

    /// Whether the caller runs on this loop's thread.
    var inLoop: Bool { pthread_equal(thread, pthread_self()) != 0 }

    /// Traps when called off the loop's thread, in release builds too (a thread check
    /// costs next to nothing beside the libwebsockets call it guards).
    @inline(__always)
    func preconditionInLoop(_ function: StaticString = #function) {
        precondition(inLoop, "\(function) touched a client loop off its thread")
    }

    /// Waits for socket activity (or the wake interval) and runs the callbacks it
    /// brings. Only for a loop made with ``init(wakeInterval:)``.
    package func serviceOnce() throws(WebSocketClientError) {
        preconditionInLoop()
        precondition(servicedByCaller, "a WebSocketClientThread services its own loop")
        guard let context, lws_service(context, 0) >= 0 else { throw .serviceFailed }
    }

    /// Destroys the context: every connection still open ends (its delegate hears
    /// ``WebSocketClientDelegate/ended(_:error:)``). Only for a loop made with
    /// ``init(wakeInterval:)``; safe to call more than once.
    package func stop() {
        precondition(servicedByCaller, "a WebSocketClientThread stops its own loop")
        guard let context else { return }
        preconditionInLoop()
        wakeTimer?.stop()
        self.context = nil
        lws_context_destroy(context)
    }

    /// A buffer with headroom for a payload of `count` bytes; returns where the payload
    /// goes. Valid until the next call.
    func framePayload(count: Int) -> UnsafeMutableRawPointer {
        if count > frameBufferPayloadCapacity {
            frameBufferPayloadCapacity = max(count, frameBufferPayloadCapacity * 2)
            frameBuffer.deallocate()
            frameBuffer = .allocate(
                byteCount: OutboundFrame.headroom + frameBufferPayloadCapacity,
                alignment: MemoryLayout<UInt64>.alignment)
        }
        return frameBuffer + OutboundFrame.headroom
    }
}
