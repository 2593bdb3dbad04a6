import CLibWebSockets
import DequeModule
import Footlight
import Foundation
import Synchronization

/// One libwebsockets context and the thread that services it.
///
/// Debian's libwebsockets has one service thread per context (`LWS_MAX_SMP 1`) and no
/// internal locks, so every `lws_*` call on this context happens on the loop's *owner*
/// thread. Other threads hand work over with ``execute(_:)``: a closure goes into a
/// locked mailbox and `lws_cancel_service` (the only thread-safe lws call) wakes the
/// loop. The loop runs app work (sessions' turns, posted work) *between* calls to
/// `lws_service`, never inside a libwebsockets callback, so that a turn that overruns its
/// budget can be left behind: ``handOff(expected:)`` gives the loop to a fresh owner
/// thread, which goes on servicing the context, while the old thread finishes the app
/// code and then touches no libwebsockets state (see the Threading article).
package final class ServiceLoop: @unchecked Sendable {
    // @unchecked: `context`, `vhost`, `deferred`, `connections`, `adoptedSockets`,
    // `requestBodies`, `routeExchanges`, `onAdoptedSocketClosed`, `resources` and `liveness` are touched only
    // by the owner thread, and only after it has checked that it still owns the loop
    // (`inLoop`, checked by `preconditionInLoop`); a thread that lost the loop in
    // a hand-off touches none of them again. The one exception: `execute` reads `context`
    // from other threads, under the mailbox lock and only while `alive` is true, which is
    // set after `context` and cleared before it is destroyed.

    /// A short name for logs and the thread ("footlight-loop-0").
    package let name: String

    private struct Mailbox {
        var work = Deque<@Sendable () -> Void>()
        /// False once the context is being destroyed: no more wake-ups.
        var alive = false
    }
    private let mailbox = Locked(Mailbox())
    /// Set by the work ``stop()`` posts, read before each service pass. Not loop-confined:
    /// the thread that reads it may have lost the loop in a hand-off to the thread that
    /// set it, so it is an atomic with release and acquire (a happens-before, as a lock
    /// would give, without a lock on every pass of the loop).
    private let stopRequested = Atomic<Bool>(false)
    /// The owner thread (0: none yet): with the hand-off bit of ``appState`` clear, the
    /// only thread that may call libwebsockets on this context.
    private let threadID = Atomic<UInt>(0)
    /// The owner thread's kernel id, for the watchdog to read its state.
    package let ownerTID = Atomic<Int32>(0)
    /// Work to run after the current `lws_service` returns, in order (loop-confined).
    private var deferred = Deque<() -> Void>()
    /// Turn counter << 2 | handed-off bit (2) | in-app-code bit (1).
    package let appState = Atomic<UInt64>(0)
    /// The most threads left running app code after a hand-off, at once.
    static let maximumOrphans = 64
    private static let orphans = Atomic<Int>(0)
    /// Hand-offs so far (for tests and diagnostics).
    package let handOffs = Atomic<Int>(0)
    /// When the newest owner thread from a hand-off started servicing the loop.
    package let lastHandOff = Locked<ContinuousClock.Instant?>(nil)

    /// The context; valid between start and the end of the thread.
    private(set) var context: OpaquePointer?
    /// The default vhost, which adopts accepted sockets.
    private(set) var vhost: OpaquePointer?
    /// Open WebSocket connections of this loop, by id.
    private var connections: [ConnectionID: Connection] = [:]
    /// Sockets (wsi) this loop adopted from the acceptor and libwebsockets has not
    /// destroyed, with the address each came from.
    private var adoptedSockets: [OpaquePointer: ClientAddress] = [:]
    /// The receivers of request bodies being read (uploads), by the request's wsi.
    var requestBodies: [OpaquePointer: any RequestBodySink] = [:]
    /// The requests routes are answering, by the request's wsi.
    var routeExchanges: [OpaquePointer: RouteExchange] = [:]
    /// Called once per adopted socket when libwebsockets destroys it.
    var onAdoptedSocketClosed: (@Sendable (ClientAddress) -> Void)?
    /// The most bytes any one connection of this loop had waiting for its socket.
    let peakUnsentBytes = Atomic<Int>(0)
    /// Whole WebSocket messages this loop has read, on every connection.
    let receivedMessages = Atomic<Int>(0)
    /// The most messages any one connection of this loop had waiting for its session.
    let peakQueuedMessages = Atomic<Int>(0)
    /// Whole WebSocket messages this loop has written to its sockets (pings and close
    /// frames not counted).
    let sentMessages = Atomic<Int>(0)
    /// When this loop last wrote one (``System/monotonicNanoseconds``; 0 before).
    let lastSentNanoseconds = Atomic<UInt64>(0)

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
    /// The liveness checks' policy and timer, once started (server loops only); released
    /// after the context is destroyed.
    var liveness: LivenessTimer?

    /// Builds the context on the loop thread. `user` is the pointer to store in
    /// `lws_context_creation_info.user` so callbacks find this loop.
    typealias ContextFactory = (_ user: UnsafeMutableRawPointer) -> OpaquePointer?

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
            becomeOwner()
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
        thread.stackSize = Self.stackSize
        thread.start()
        started.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Room for parsing and encoding JSON nested JSONLimits.maximumDepth levels deep.
    static let stackSize = 8 << 20

    /// Keeps `object` alive until the context has been destroyed.
    package func keepAlive(_ object: AnyObject) {
        nonisolated(unsafe) let object = object
        execute { [self] in resources = object }
    }

    /// Runs `work` on the loop thread, after everything posted before it.
    /// Returns false (and drops the work) when the loop has stopped.
    @discardableResult
    package func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        let posted = mailbox.withLock { state -> Bool in
            guard state.alive else { return false }
            state.work.append(work)
            if state.work.count == 1, let context { lws_cancel_service(context) }
            return true
        }
        return posted
    }

    /// Whether the caller runs on this loop's owner thread (and the loop has not been
    /// handed off from under it).
    ///
    /// The hand-off bit is read first: a new owner names itself before it clears the
    /// bit, so a thread that finds the bit clear and then its own id still owns the loop.
    /// (Read the other way round, the old owner could see its id, then the new owner's
    /// cleared bit, and go on serving beside it.)
    package var inLoop: Bool {
        appState.load(ordering: .sequentiallyConsistent) & 2 == 0
            && threadID.load(ordering: .sequentiallyConsistent) == UInt(pthread_self())
    }

    /// Traps when called off the loop thread, in release builds too: the guard that
    /// keeps libwebsockets single-threaded (two atomic loads and `pthread_self`, next to
    /// nothing beside the libwebsockets call it guards; SwiftNIO's loop-bound values check
    /// the same way).
    @inline(__always)
    package func preconditionInLoop(_ function: StaticString = #function) {
        precondition(inLoop, "\(function) touched libwebsockets off its loop thread (\(name))")
    }

    /// The open connection with `id`, if it is still open.
    func connection(_ id: ConnectionID) -> Connection? {
        preconditionInLoop()
        return connections[id]
    }

    /// Every open connection, for the liveness sweep.
    var openConnections: Dictionary<ConnectionID, Connection>.Values {
        preconditionInLoop()
        return connections.values
    }

    func register(_ connection: Connection) {
        preconditionInLoop()
        connections[connection.id] = connection
    }

    func unregister(_ connection: Connection) {
        preconditionInLoop()
        connections[connection.id] = nil
    }

    func adopted(_ wsi: OpaquePointer, from client: ClientAddress) {
        preconditionInLoop()
        adoptedSockets[wsi] = client
    }

    /// From LWS_CALLBACK_WSI_DESTROY: counts an adopted socket as closed, once.
    func destroyed(_ wsi: OpaquePointer) {
        preconditionInLoop()
        if let client = adoptedSockets.removeValue(forKey: wsi) { onAdoptedSocketClosed?(client) }
        requestBodies.removeValue(forKey: wsi)?.interrupt()
        routeExchanges[wsi]?.close()
    }

    /// A loop whose callbacks need no server delegate (a client context).
    convenience init(name: String, makeContext: @escaping ContextFactory) throws(ServerError) {
        try self.init(name: name, delegate: nil, makeContext: makeContext)
    }

    /// Stops the loop after the work already posted, destroys the context on its
    /// thread and waits for the thread to end. Safe to call more than once.
    package func stop() {
        if execute({ [self] in stopRequested.store(true, ordering: .releasing) }) {
            finished.wait()
            finished.signal()  // let later callers through too
        }
    }

    /// Runs the mailbox, after every `lws_service` (never inside a libwebsockets
    /// callback, on a server or a client context). Stops early when the loop
    /// is handed to another thread meanwhile, or after `limit` pieces of work: then the
    /// next `lws_service` returns at once (the rest waits for the next pass), so sockets
    /// are read and written between batches of a storm of work (a change fanned out to
    /// thousands of sessions).
    private func drainMailbox(limit: Int = .max) {
        preconditionInLoop()
        var done = 0
        while inLoop {
            let work = mailbox.withLock { state -> (@Sendable () -> Void)? in
                state.work.popFirst()
            }
            guard let work else { return }
            work()
            done += 1
            if done >= limit {
                if let context, mailbox.withLock({ !$0.work.isEmpty }) { lws_cancel_service(context) }
                return
            }
        }
    }

    /// Runs `work` on the loop thread after the current `lws_service` returns (outside
    /// every libwebsockets callback), after work deferred before it.
    func afterService(_ work: @escaping () -> Void) {
        preconditionInLoop()
        deferred.append(work)
    }

    /// Deferred work, then the mailbox; stops when the loop was handed off meanwhile.
    private func runAppWork() {
        while inLoop, let work = deferred.popFirst() { work() }
        if inLoop { drainMailbox(limit: Self.mailboxBatch) }
    }

    /// Mailbox work run between two service passes at most.
    static let mailboxBatch = 1024

    /// Services the context until ``stop()``, or until this thread loses the loop in a
    /// hand-off. Ownership is checked before every look at the loop's state: once the
    /// loop is handed off, the new owner may be stopping it, and this thread must neither
    /// read its stop flag as its own nor destroy the context.
    private func run() {
        while true {
            runAppWork()
            // Handed to a new owner during app work: this thread touches nothing more.
            guard inLoop else {
                Self.orphanFinished()
                return
            }
            if stopRequested.load(ordering: .acquiring) || lws_service(context, 0) < 0 { break }
        }
        // No wake-ups may reach a context being destroyed.
        mailbox.withLock { $0.alive = false }
        while let work = deferred.popFirst() { work() }
        drainMailbox()
        lws_context_destroy(context)
        context = nil
        vhost = nil
        liveness = nil
        resources = nil
        finished.signal()
    }

    // MARK: App code and hand-off

    private func becomeOwner() {
        ownerTID.store(footlight_thread_id(), ordering: .sequentiallyConsistent)
        threadID.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
    }

    /// The owner thread, for the watchdog to read its CPU time.
    package var ownerThread: pthread_t { pthread_t(threadID.load(ordering: .sequentiallyConsistent)) }

    /// Marks the start of app code (a session's turn) on the owner thread; pass the
    /// result to ``endAppCode(_:)``.
    package func beginAppCode() -> UInt64 {
        let turn = ((appState.load(ordering: .relaxed) >> 2) &+ 1) << 2 | 1
        appState.store(turn, ordering: .sequentiallyConsistent)
        return turn
    }

    /// Marks the end of app code. Returns false when the loop was handed to another
    /// thread meanwhile: the caller's thread no longer owns it and must not touch
    /// libwebsockets (``inLoop`` is false for it from now on).
    package func endAppCode(_ turn: UInt64) -> Bool {
        appState.compareExchange(expected: turn, desired: turn & ~1, ordering: .sequentiallyConsistent).exchanged
    }

    /// Whether a loop whose app state is `state` may be handed off: app code runs (bit
    /// 0) and the loop was not handed off already (bit 1). A loop handed off but whose
    /// new thread has not run yet (a loaded machine) must not be handed off again: two
    /// threads would then serve one context.
    package static func mayHandOff(_ state: UInt64) -> Bool {
        state & 3 == 1
    }

    /// Gives the loop to a fresh thread if the app code that was running at `expected`
    /// still runs (called by the watchdog). The stuck thread finishes its turn and ends.
    /// Returns whether the loop was handed off; once per turn at most.
    @discardableResult
    package func handOff(expected: UInt64) -> Bool {
        // A stopping loop is not handed off: its context is being destroyed.
        guard Self.mayHandOff(expected), mailbox.withLock({ $0.alive }) else { return false }
        guard Self.orphans.add(1, ordering: .relaxed).newValue <= Self.maximumOrphans else {
            Self.orphans.subtract(1, ordering: .relaxed)
            return false
        }
        guard
            appState.compareExchange(expected: expected, desired: expected | 2, ordering: .sequentiallyConsistent)
                .exchanged
        else {
            Self.orphans.subtract(1, ordering: .relaxed)
            return false
        }
        // From here the stuck thread is no owner (the hand-off bit is set): nothing it does
        // touches libwebsockets.
        handOffs.add(1, ordering: .relaxed)
        let next = Thread { [self] in
            becomeOwner()
            appState.store(((expected >> 2) &+ 1) << 2, ordering: .sequentiallyConsistent)
            lastHandOff.withLock { $0 = .now }
            run()
        }
        next.name = name
        next.stackSize = Self.stackSize
        next.start()
        return true
    }

    /// A thread that lost the loop has finished its app code and ends.
    private static func orphanFinished() {
        orphans.subtract(1, ordering: .relaxed)
    }

    /// The loop that owns `context`, from the user pointer given at creation.
    static func from(context: OpaquePointer?) -> ServiceLoop? {
        guard let context, let user = lws_context_user(context) else { return nil }
        return Unmanaged<ServiceLoop>.fromOpaque(user).takeUnretainedValue()
    }

    /// The loop that owns `wsi`.
    static func from(wsi: OpaquePointer?) -> ServiceLoop? {
        guard let wsi else { return nil }
        return from(context: lws_get_context(wsi))
    }
}
