import Dispatch
import Footlight
import Logging
import OrderedCollections

/// Every live session of a server, by id, and the retention of disconnected ones:
/// each is kept for ``SessionLimits/retention`` after its socket drops, and at most
/// ``SessionLimits/maximumRetained`` are kept (the longest-disconnected goes first).
/// Sessions pages' first responses started wait for their page's socket apart
/// (``PendingSessions``): they never count as retained, and expire sooner.
final class SessionRegistry: Sendable {
    private struct State {
        /// By session id.
        var sessions: [String: SessionDriver] = [:]
        /// Disconnected sessions in the order they disconnected, with the time.
        var disconnected: OrderedDictionary<String, ContinuousClock.Instant> = [:]
        /// Set at shutdown: no new sessions.
        var stopping = false
        /// Sessions started by a page's `GET`, not joined yet.
        var pending: PendingSessions
    }
    private let state: Locked<State>
    private let sessions: SessionState.Configuration
    private var limits: SessionLimits { sessions.limits }
    private let logger: Logger
    private let entry: AppEntry
    private let tokens: SignedIDs
    /// The uploads of every session.
    let uploads: UploadRegistry
    // nonisolated(unsafe): set once in init, cancelled in deinit; the timer itself is
    // thread-safe and only calls `sweep`, which takes the lock.
    nonisolated(unsafe) private let sweeper: DispatchSourceTimer

    init(
        sessions: SessionState.Configuration, tokens: SignedIDs, uploads: UploadRegistry, logger: Logger,
        firstContent: FirstContentConfiguration = FirstContentConfiguration(), entry: @escaping AppEntry
    ) {
        state = Locked(
            State(pending: PendingSessions(maximum: firstContent.maximumPending, expiry: firstContent.expiry)))
        self.sessions = sessions
        self.tokens = tokens
        self.uploads = uploads
        self.logger = logger
        self.entry = entry
        sweeper = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "footlight.sessions.sweeper"))
        let interval = min(Duration.seconds(1), sessions.limits.retention / 4, firstContent.expiry / 4)
        let nanoseconds =
            Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        sweeper.schedule(
            deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(max(nanoseconds, 1_000_000)))
        sweeper.setEventHandler { [weak self] in self?.sweep(now: .now) }
        sweeper.resume()
    }

    deinit {
        sweeper.cancel()
    }

    /// A new session with a fresh 128-bit random id and its signed resume token, at
    /// home on `loop`, opened by `request`, or nil once the server is shutting down.
    func create(on loop: any SessionLoop, request: SessionRequest) -> SessionDriver? {
        add(on: loop, request: request) { _, _ in true }
    }

    /// A new session for a page's `GET` (as ``create(on:request:)``), pending until a
    /// connection adopts it; nil when ``FirstContentConfiguration/maximumPending`` are
    /// pending, or once the server is shutting down.
    func createPending(on loop: any SessionLoop, request: SessionRequest) -> SessionDriver? {
        add(on: loop, request: request) { state, id in state.pending.admit(id, now: .now) }
    }

    /// A new session, registered when `admits` agrees (under the lock) and the server is
    /// not shutting down.
    private func add(
        on loop: any SessionLoop, request: SessionRequest, admits: (inout State, String) -> Bool
    ) -> SessionDriver? {
        let id = SignedIDs.newID()
        let session = SessionDriver(
            id: id, token: tokens.token(for: id),
            configuration: sessions,
            logger: logger, entry: entry, request: request, registry: self, home: loop)
        let added = state.withLock { state -> Bool in
            guard !state.stopping, admits(&state, id) else { return false }
            state.sessions[id] = session
            return true
        }
        return added ? session : nil
    }

    /// Ends a pending session its `GET` gave up on (its first turn took too long). It
    /// stays pending, holding its place under the bound, until its end has run: a Director
    /// that blocks holds at most ``FirstContentConfiguration/maximumPending`` sessions.
    func abandon(_ session: SessionDriver) {
        logger.debug("ending session \(session.id.prefix(8)): its page's first response gave up on it")
        session.end(reason: "its first turn took longer than the page's first response waits") { [weak self] in
            self?.remove(session.id)
        }
    }

    /// The live session `token` names, if any: nil for a token this server did not
    /// sign (forged or altered) as for one whose session has ended.
    func session(for token: String) -> SessionDriver? {
        guard let id = tokens.id(from: token) else { return nil }
        return state.withLock { $0.sessions[id] }
    }

    func connected(_ id: String) {
        state.withLock { state in
            _ = state.disconnected.removeValue(forKey: id)
            _ = state.pending.adopt(id)
        }
    }

    func disconnected(_ id: String) {
        let evicted = state.withLock { state -> [SessionDriver] in
            guard state.sessions[id] != nil, !state.pending.wait(id) else { return [] }
            state.disconnected[id] = .now
            var evicted: [SessionDriver] = []
            while state.disconnected.count > limits.maximumRetained {
                let oldest = state.disconnected.removeFirst().key
                if let session = state.sessions.removeValue(forKey: oldest) { evicted.append(session) }
            }
            return evicted
        }
        end(evicted, reason: "too many disconnected sessions; the oldest was dropped")
    }

    /// Forgets a session that ended by itself (its Director failed): its token then
    /// names no session.
    func remove(_ id: String) {
        state.withLock { state in
            state.sessions.removeValue(forKey: id)
            state.disconnected.removeValue(forKey: id)
            state.pending.remove(id)
        }
    }

    /// Ends sessions disconnected for longer than the retention period, and pending ones
    /// no page joined in time.
    func sweep(now: ContinuousClock.Instant) {
        let unjoined = state.withLock { state in
            state.pending.expire(now: now).compactMap { state.sessions.removeValue(forKey: $0) }
        }
        end(unjoined, reason: "no page joined it in time")
        let expired = state.withLock { state -> [SessionDriver] in
            var expired: [SessionDriver] = []
            while let (id, since) = state.disconnected.elements.first, now - since >= limits.retention {
                state.disconnected.removeFirst()
                if let session = state.sessions.removeValue(forKey: id) { expired.append(session) }
            }
            return expired
        }
        end(expired, reason: "the session expired")
    }

    /// Ends every session (server shutdown) and refuses new ones; waits `wait` at most
    /// for the sessions to finish (a stuck Director does not hold the shutdown up). With
    /// no wait (a caller that does not drain), the sessions end as their loops get to them.
    func endAll(reason: String, wait: Duration) {
        let all = state.withLock { state -> [SessionDriver] in
            state.stopping = true
            let all = Array(state.sessions.values)
            state.sessions.removeAll()
            state.disconnected.removeAll()
            state.pending.removeAll()
            return all
        }
        let group = DispatchGroup()
        let ending = Locked(all.count)
        for session in all {
            group.enter()
            session.end(reason: reason) {
                ending.withLock { $0 -= 1 }
                group.leave()
            }
        }
        guard wait > .zero else { return }
        if group.wait(timeout: .now() + .nanoseconds(wait.clampedNanoseconds)) == .timedOut {
            let busy = ending.withLock { $0 }
            logger.warning(
                "shutdown went on after \(wait) with \(busy) of \(all.count) sessions still ending (a Director did not return in time)"
            )
        }
    }

    private func end(_ sessions: [SessionDriver], reason: String) {
        for session in sessions {
            logger.debug("ending session \(session.id.prefix(8)): \(reason)")
            session.end(reason: reason)
        }
    }

    /// Live sessions, connected or retained.
    var count: Int { state.withLock { $0.sessions.count } }
    /// Sessions waiting for a resume.
    var retainedCount: Int { state.withLock { $0.disconnected.count } }
    /// Sessions started by a page's `GET` that no connection has joined yet.
    var pendingCount: Int { state.withLock { $0.pending.count } }
}
