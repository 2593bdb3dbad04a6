import CLibWebSockets
import Footlight
import Foundation
import Synchronization

/// One libwebsockets context and the one thread that services it.
///
/// Debian's libwebsockets has one service thread per context (`LWS_MAX_SMP 1`) and no
/// internal locks, so every `lws_*` call on this context happens on ``thread``. Other
/// threads hand work over with ``execute(_:)``: a closure goes into a locked mailbox,
/// `lws_cancel_service` (the only thread-safe lws call) wakes the loop, and the loop
/// runs the closures in `LWS_CALLBACK_EVENT_WAIT_CANCELLED`, in the order posted.
public final class ServiceLoop: @unchecked Sendable {
    // @unchecked: `context`, `vhost`, `stopRequested`, `connections`, `adoptedSockets`,
    // `onAdoptedSocketClosed` and `resources` are touched only on the loop thread
    // (checked by `assertInLoop` in debug builds). The one exception: `execute` reads
    // `context` from other threads, under the mailbox lock and only while `alive` is
    // true, which is set after `context` and cleared before it is destroyed.

    /// A short name for logs and the thread ("footlight-loop-0").
    public let name: String

    private struct Mailbox {
        var work: [@Sendable () -> Void] = []
        /// False once the context is being destroyed: no more wake-ups.
        var alive = false
    }
    private let mailbox = Locked(Mailbox())
    private let threadID = Locked<pthread_t?>(nil)

    /// The context; valid between start and the end of the thread.
    package private(set) var context: OpaquePointer?
    /// The default vhost, which adopts accepted sockets.
    private(set) var vhost: OpaquePointer?
    private var stopRequested = false
    /// Open WebSocket connections of this loop, by id.
    private var connections: [ConnectionID: Connection] = [:]
    /// Sockets (wsi) this loop adopted from the acceptor and libwebsockets has not
    /// destroyed, with the address each came from.
    private var adoptedSockets: [OpaquePointer: ClientAddress] = [:]
    /// Called once per adopted socket when libwebsockets destroys it.
    var onAdoptedSocketClosed: (@Sendable (ClientAddress) -> Void)?
    /// The most bytes any one connection of this loop had waiting for its socket.
    let peakUnsentBytes = Atomic<Int>(0)
    /// The most messages any one connection of this loop had waiting for its session.
    let peakQueuedMessages = Atomic<Int>(0)

    /// Raises ``peakQueuedMessages`` to `count` if it is higher.
    func recordQueuedMessages(_ count: Int) {
        var peak = peakQueuedMessages.load(ordering: .relaxed)
        while count > peak {
            let (exchanged, original) = peakQueuedMessages.compareExchange(
                expected: peak, desired: count, ordering: .relaxed)
            if exchanged { break }
            peak = original
        }
    }
    /// What the loop's callbacks report to (the server, or a test client).
    let delegate: (any LoopDelegate)?
    private let finished = DispatchSemaphore(value: 0)
    /// C memory the context points into; released after the context is destroyed.
    private var resources: AnyObject?

    /// Builds the context on the loop thread. `user` is the pointer to store in
    /// `lws_context_creation_info.user` so callbacks find this loop.
    public typealias ContextFactory = (_ user: UnsafeMutableRawPointer) -> OpaquePointer?

    /// Starts the thread and creates the context on it; throws when libwebsockets
    /// refuses the configuration.
    init(name: String, delegate: (any LoopDelegate)?, makeContext: @escaping ContextFactory) throws(ServerError) {
        self.name = name
        self.delegate = delegate
        LibWebSocketsLog.install()
        let started = DispatchSemaphore(value: 0)
        let failure = Locked<ServerError?>(nil)
        nonisolated(unsafe) let factory = makeContext  // used once, on the new thread
        let thread = Thread { [self] in
            threadID.withLock { $0 = pthread_self() }
            let user = Unmanaged.passUnretained(self).toOpaque()
            guard let context = factory(user) else {
                failure.withLock {
                    $0 = ServerError.transport("libwebsockets could not create the context for \(name)")
                }
                started.signal()
                finished.signal()
                return
            }
            self.context = context
            self.vhost = lws_get_vhost_by_name(context, "default")
            mailbox.withLock { $0.alive = true }
            started.signal()
            run()
        }
        thread.name = name
        // Room for parsing and encoding JSON nested JSONLimits.maximumDepth levels deep.
        thread.stackSize = 8 << 20
        thread.start()
        started.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Keeps `object` alive until the context has been destroyed.
    package func keepAlive(_ object: AnyObject) {
        nonisolated(unsafe) let object = object
        execute { [self] in resources = object }
    }

    /// Runs `work` on the loop thread, after everything posted before it.
    /// Returns false (and drops the work) when the loop has stopped.
    @discardableResult
    public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        let posted = mailbox.withLock { state -> Bool in
            guard state.alive else { return false }
            state.work.append(work)
            if state.work.count == 1, let context { lws_cancel_service(context) }
            return true
        }
        return posted
    }

    /// Whether the caller runs on this loop's thread.
    public var inLoop: Bool {
        guard let id = threadID.withLock({ $0 }) else { return false }
        return pthread_equal(id, pthread_self()) != 0
    }

    /// Traps in debug builds when called off the loop thread: the guard that keeps
    /// libwebsockets single-threaded.
    @inline(__always)
    public func assertInLoop(_ function: StaticString = #function) {
        assert(inLoop, "\(function) touched libwebsockets off its loop thread (\(name))")
    }

    /// The open connection with `id`, if it is still open.
    func connection(_ id: ConnectionID) -> Connection? {
        assertInLoop()
        return connections[id]
    }

    func register(_ connection: Connection) {
        assertInLoop()
        connections[connection.id] = connection
    }

    func unregister(_ connection: Connection) {
        assertInLoop()
        connections[connection.id] = nil
    }

    func adopted(_ wsi: OpaquePointer, from client: ClientAddress) {
        assertInLoop()
        adoptedSockets[wsi] = client
    }

    /// From LWS_CALLBACK_WSI_DESTROY: counts an adopted socket as closed, once.
    func destroyed(_ wsi: OpaquePointer) {
        assertInLoop()
        if let client = adoptedSockets.removeValue(forKey: wsi) { onAdoptedSocketClosed?(client) }
    }

    /// A loop whose callbacks need no server delegate (a client context).
    package convenience init(name: String, makeContext: @escaping ContextFactory) throws(ServerError) {
        try self.init(name: name, delegate: nil, makeContext: makeContext)
    }

    /// Stops the loop after the work already posted, destroys the context on its
    /// thread and waits for the thread to end. Safe to call more than once.
    public func stop() {
        if execute({ [self] in stopRequested = true }) {
            finished.wait()
            finished.signal()  // let later callers through too
        }
    }

    /// Runs the mailbox; called from the EVENT_WAIT_CANCELLED callback.
    package func drainMailbox() {
        assertInLoop()
        while true {
            let batch = mailbox.withLock { state -> [@Sendable () -> Void] in
                let work = state.work
                state.work.removeAll(keepingCapacity: true)
                return work
            }
            if batch.isEmpty { return }
            for work in batch { work() }
        }
    }

    private func run() {
        while !stopRequested {
            if lws_service(context, 0) < 0 { break }
        }
        // No wake-ups may reach a context being destroyed.
        mailbox.withLock { $0.alive = false }
        drainMailbox()
        lws_context_destroy(context)
        context = nil
        vhost = nil
        resources = nil
        finished.signal()
    }

    /// The loop that owns `context`, from the user pointer given at creation.
    package static func from(context: OpaquePointer?) -> ServiceLoop? {
        guard let context, let user = lws_context_user(context) else { return nil }
        return Unmanaged<ServiceLoop>.fromOpaque(user).takeUnretainedValue()
    }

    /// The loop that owns `wsi`.
    package static func from(wsi: OpaquePointer?) -> ServiceLoop? {
        guard let wsi else { return nil }
        return from(context: lws_get_context(wsi))
    }
}
