import DequeModule
import Dispatch
import Footlight
import FootlightJSON
import Logging

/// Runs one session: feeds its ``SessionState`` what happens, carries out the actions
/// it returns, and is the session's ``SessionExecutor``.
///
/// Every piece of the session's work is a *turn*: app code (a Director handling an
/// event, a shared service's update, a timer) and state-machine steps, then one flush
/// that diffs the changed stages, and the writes. Turns run one at a time on the
/// session's *home*: the service loop that owns its connection, so an event needs no
/// thread hop, or a queue of its own once a turn overran the loop's budget (see the
/// Threading article). Work posted from other threads waits in the session's mailbox.
final class SessionDriver: SessionExecutor, @unchecked Sendable {
    // @unchecked: `state`, `connection`, `replaced`, `outbox` and `context` are touched
    // only inside a turn, and turns never overlap: a turn runs only while it holds the
    // mailbox's `running` flag. The mailbox itself is locked.

    /// The registry's key for the session: 128 random bits as hex.
    let id: String
    /// What the client resumes with: the id and its signature.
    let token: String
    var state: SessionState
    private let logger: Logger
    private let entry: AppEntry
    weak var registry: SessionRegistry?
    /// Who opened the session (its path is set when the app starts).
    private let request: SessionRequest
    /// The app's context, made when the app starts.
    private var context: Context?
    /// The attached connection, and connections replaced by a newer one until closed.
    var connection: (any SessionConnection)?
    var replaced: [ConnectionID: any SessionConnection] = [:]
    /// What this turn writes, carried out when its app code is done.
    private var outbox: [(any SessionConnection, Output)] = []
    /// Where each unfinished upload's events go (its binding's input).
    let uploadDeliveries = UploadDeliveries()
    private enum Output {
        case messages([WireMessage])
        case close(code: UInt16, reason: String)
    }

    /// Where the session's turns run.
    private enum Home {
        case loop(any SessionLoop)
        case queue(DispatchQueue)

        func post(_ work: @escaping @Sendable () -> Void) {
            switch self {
            case .loop(let loop):
                // A stopped loop: run off it (its connections are gone; sends are dropped),
                // never inline, where the caller may be inside libwebsockets.
                if !loop.execute(work) { DispatchQueue.global().async(execute: work) }
            case .queue(let queue): queue.async(execute: work)
            }
        }

        func isSame(as other: Home) -> Bool {
            switch (self, other) {
            case (.loop(let a), .loop(let b)): a === b
            case (.queue(let a), .queue(let b)): a === b
            default: false
            }
        }
    }
    private struct Mailbox {
        var home: Home
        var work = Deque<@Sendable () -> Void>()
        /// A turn runs, or a drain is posted: nobody else may start one.
        var running = false
        /// Whether a turn overran and the session left its loop for good.
        var evicted = false
    }
    private let mailbox: Locked<Mailbox>
    /// Turns one drain runs before it lets the loop's other work in.
    private static let turnsPerDrain = 64

    init(
        id: String, token: String, configuration: SessionState.Configuration, logger: Logger,
        entry: @escaping AppEntry, request: SessionRequest, registry: SessionRegistry, home: (any SessionLoop)?
    ) {
        self.id = id
        self.token = token
        self.entry = entry
        self.request = request
        self.registry = registry
        state = SessionState(token: token, configuration: configuration, now: .now)
        var logger = logger
        logger[metadataKey: "session"] = "\(id.prefix(8))"
        self.logger = logger
        mailbox = Locked(
            Mailbox(home: home.map(Home.loop) ?? .queue(DispatchQueue(label: "footlight.session"))))
    }

    // MARK: SessionExecutor

    func execute(_ work: @escaping @Sendable () -> Void) {
        let post = mailbox.withLock { box -> Home? in
            box.work.append(work)
            guard !box.running else { return nil }
            box.running = true
            return box.home
        }
        if let post { post.post { [self] in drain(on: post) } }
    }

    func execute(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledAction {
        let timer = SessionTimer(work)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(delay.clampedNanoseconds)) {
            [weak self] in
            self?.execute { timer.fire() }
        }
        return ScheduledAction { timer.cancel() }
    }

    /// Runs `work` as a turn right here when the caller is the session's home loop and
    /// nothing else is waiting for the session; otherwise posts it. On a loop thread,
    /// outside libwebsockets callbacks.
    func submit(from loop: any SessionLoop, _ work: @escaping @Sendable () -> Void) {
        let inline = mailbox.withLock { box -> Bool in
            guard case .loop(let home) = box.home, home === loop, !box.running, box.work.isEmpty else { return false }
            box.running = true
            return true
        }
        guard inline else { return execute(work) }
        runTurn(work)
        finishRunning()
    }

    /// Runs the mailbox on `home` until it is empty, the session moved, or a batch ran.
    private func drain(on home: Home) {
        for _ in 0..<Self.turnsPerDrain {
            let next = mailbox.withLock { box -> (@Sendable () -> Void)? in
                guard box.home.isSame(as: home), !box.work.isEmpty else { return nil }
                return box.work.popFirst()
            }
            guard let next else { break }
            runTurn(next)
        }
        finishRunning()
    }

    /// Gives up the running flag, or hands the rest of the mailbox to a new drain on the
    /// session's (possibly new) home.
    private func finishRunning() {
        let post = mailbox.withLock { box -> Home? in
            guard !box.work.isEmpty else {
                box.running = false
                return nil
            }
            return box.home
        }
        if let post { post.post { [self] in drain(on: post) } }
    }

    // MARK: Turns

    /// One turn: `work` (app code, watched by the loop's budget), then the flush and
    /// the writes. If the loop was handed to another thread while `work` ran, the
    /// session moves to a queue of its own and this thread only finishes the turn.
    private func runTurn(_ work: () -> Void) {
        let loop: (any SessionLoop)? = mailbox.withLock { box in
            if case .loop(let loop) = box.home, loop.inLoop { return loop }
            return nil
        }
        let turn = loop?.beginAppCode()
        work()
        if let loop, let turn, !loop.endAppCode(turn) {
            logger.warning(
                "a turn overran the loop's budget (a slow or blocking Director); the session moves to a queue of its own and its loop to a new thread"
            )
            mailbox.withLock { box in
                box.home = .queue(DispatchQueue(label: "footlight.session"))
                box.evicted = true
            }
        }
        if state.flushScheduled {
            for action in state.flush(unsentBytes: connection?.unsentBytes ?? 0) { carryOut(action) }
        }
        for (handle, output) in outbox {
            switch output {
            case .messages(let messages): handle.send(messages)
            case .close(let code, let reason): handle.close(code: code, reason: reason)
            }
        }
        outbox.removeAll(keepingCapacity: true)
    }

    func startApp(path: String, modals: [String]) {
        var request = self.request
        request.path = path
        let context = Context(
            environment: SessionEnvironment(executor: SessionExecutorReference(self), request: request),
            presenter: self)
        self.context = context
        context.start(entry, path: path, restoringModals: modals)
    }

    func carryOut(_ action: ProtocolAction) {
        switch action {
        case .send(let messages):
            if let connection { outbox.append((connection, .messages(messages))) }
        case .close(let id, let code, let reason):
            let handle: (any SessionConnection)?
            if connection?.id == id {
                handle = connection
                // The session let go of it (it ended): so does the driver.
                if state.connection != id { connection = nil }
            } else {
                handle = replaced.removeValue(forKey: id)
            }
            if let handle {
                handle.setDrainHandler(nil)
                outbox.append((handle, .close(code: code, reason: reason)))
            }
        case .scheduleFlush:
            break  // every turn ends with a flush when one is scheduled
        case .awaitDrain:
            connection?.requestDrainSignal()
        case .log(let level, let message):
            logger.log(level: level, "\(message)")
        case .ended:
            registry?.remove(id)
            uploadDeliveries.removeAll()
            registry?.uploads.sessionEnded(id)
        }
    }

    /// The session's home becomes `loop` (unless it was evicted from loops).
    func moveHome(to loop: any SessionLoop) {
        mailbox.withLock { box in
            if !box.evicted { box.home = .loop(loop) }
        }
    }
}
