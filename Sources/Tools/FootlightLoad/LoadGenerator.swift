import BenchSupport
import FootlightServer

/// A single-threaded WebSocket load generator: one client loop
/// (``WebSocketClientLoop``), serviced on the calling thread, driving many
/// connections, each a small state machine (``LoadConnection``) in one table.
///
/// The phases are: ``open(_:to:)`` (ramp up in batches), ``runClosedLoop(warmup:measure:)``
/// (every ready connection keeps one event outstanding), ``settle(seconds:)`` (idle) and
/// ``closeAll()``. Every wait is bounded; a stall throws a ``LoadError`` saying where.
final class LoadGenerator {
    /// Connections started at once while ramping up (the rest wait their turn).
    let batchSize: Int
    /// Seconds without progress before a phase gives up.
    let stallSeconds: Double
    /// The server's process, whose CPU time each closed loop reports (0: not reported).
    var serverPID: Int32 = 0
    /// The core the server is pinned to, whose busy time each closed loop reports (-1: none).
    var serverCore = -1

    private let port: Int
    private let loop: WebSocketClientLoop
    private let origin: String
    private let paths: [Endpoint: (path: String, subprotocol: String)]
    let text = OutgoingText()

    /// Every connection ever started, by id.
    var connections: [LoadConnection] = []
    /// Connecting or joining.
    private(set) var inFlight = 0
    private(set) var readyCount = 0
    /// Not yet closed or failed.
    private(set) var liveCount = 0
    private(set) var failedCount = 0
    /// Connections the server closed (or that dropped) while joined or ready.
    var unexpectedCloses = 0
    /// The first reason a connection failed or dropped.
    var firstProblem: String?
    /// Set by a callback that caught the server misbehaving; thrown by the loop.
    var fault: LoadError?

    // The closed loop.
    var loopRunning = false
    /// Events written and not yet answered.
    var outstanding = 0
    /// Replies received, ever (progress for stall detection).
    var repliesReceived = 0
    var windowStart = UInt64.max
    var windowEnd = UInt64.max
    var completedInWindow = 0
    var histogram = LatencyHistogram()
    /// Patches checked in full so far (one in every ``fullCheckInterval``).
    var patchesSeen = 0
    let fullCheckInterval = 997
    /// A connection acks after this many patches.
    let ackEvery = 16

    init(port: Int, footlightPath: String, echoPath: String, batchSize: Int, stallSeconds: Double) throws(LoadError) {
        self.port = port
        self.batchSize = batchSize
        self.stallSeconds = stallSeconds
        origin = "http://127.0.0.1:\(port)"
        paths = [
            .footlight: (footlightPath, ServerConfiguration.subprotocol),
            .echo: (echoPath, ServerConfiguration.echoSubprotocol),
        ]
        do {
            loop = try WebSocketClientLoop()
        } catch {
            throw .generator(error.description)
        }
    }

    deinit {
        loop.stop()
    }

    // MARK: Phases

    /// What a ramp-up achieved.
    struct Ramp {
        var ready = 0
        var failed = 0
        var seconds = 0.0
    }

    /// Opens `count` more connections to `endpoint`, at most ``batchSize`` in flight,
    /// and waits until each is ready (footlight: joined and mounted) or has failed.
    func open(_ count: Int, to endpoint: Endpoint) throws(LoadError) -> Ramp {
        let start = Clock.now()
        let first = connections.count
        var toStart = count
        var lastProgress = start
        var settled = 0
        while toStart > 0 || inFlight > 0 {
            while toStart > 0, inFlight < batchSize {
                connect(endpoint)
                toStart -= 1
            }
            try serviceOnce()
            let now = Clock.now()
            let nowSettled = (count - toStart) - inFlight
            if nowSettled != settled {
                settled = nowSettled
                lastProgress = now
            } else if now - lastProgress > Clock.nanoseconds(stallSeconds) {
                throw .server(
                    "ramp-up to \(count) \(endpoint) connections stalled: \(settled) settled, \(inFlight) in flight, "
                        + "\(toStart) not started, nothing for \(stallSeconds) s")
            }
        }
        var ramp = Ramp(seconds: Double(Clock.now() - start) / 1e9)
        for connection in connections[first...] {
            if connection.phase == .ready { ramp.ready += 1 }
            if connection.phase == .failed { ramp.failed += 1 }
        }
        return ramp
    }

    /// What one closed-loop run measured.
    struct LoopResult {
        let connections: Int
        let completed: Int
        let windowSeconds: Double
        let histogram: LatencyHistogram
        let cpuSeconds: Double
        let wallSeconds: Double
        /// The server's CPU seconds over the same window, when its process is known.
        let serverCPUSeconds: Double?
        /// The server core's busy seconds over the window (the server and anything else).
        let serverCoreBusySeconds: Double?

        var perSecond: Double { Double(completed) / windowSeconds }
    }

    /// Every ready connection writes an event, and the next as soon as its reply
    /// arrives. Round trips completing in the `measure` seconds after `warmup` are
    /// counted; then the loop stops and the events still out are waited for.
    func runClosedLoop(warmup: Double, measure: Double) throws(LoadError) -> LoopResult {
        histogram = LatencyHistogram()
        completedInWindow = 0
        let start = Clock.now()
        windowStart = start + Clock.nanoseconds(warmup)
        windowEnd = windowStart + Clock.nanoseconds(measure)
        loopRunning = true
        var participants = 0
        for id in connections.indices where connections[id].phase == .ready {
            participants += 1
            connections[id].wantsEvent = true
            connections[id].socket.requestWritable()
        }
        guard participants > 0 else { throw .generator("no ready connections for the closed loop") }
        var cpuStart: UInt64 = 0
        var wallStart: UInt64 = 0
        var serverStart: Double?
        var coreStart: Double?
        var lastReplies = repliesReceived
        var lastProgress = start
        while true {
            try serviceOnce()
            let now = Clock.now()
            if wallStart == 0, now >= windowStart {
                wallStart = now
                cpuStart = ProcessCPU.nanoseconds()
                serverStart = CPUTime.seconds(pid: serverPID)
                coreStart = CoreTime.busySeconds(core: serverCore)
            }
            if now >= windowEnd { break }
            if repliesReceived != lastReplies {
                lastReplies = repliesReceived
                lastProgress = now
            } else if now - lastProgress > Clock.nanoseconds(stallSeconds) {
                throw .server("no reply for \(stallSeconds) s with \(outstanding) events outstanding")
            }
        }
        let cpu = ProcessCPU.nanoseconds() - cpuStart
        let wall = Clock.now() - wallStart
        let serverCPU = CPUTime.seconds(pid: serverPID).flatMap { end in serverStart.map { end - $0 } }
        let coreBusy = CoreTime.busySeconds(core: serverCore).flatMap { end in coreStart.map { end - $0 } }
        loopRunning = false
        try drain()
        return LoopResult(
            connections: participants, completed: completedInWindow, windowSeconds: measure, histogram: histogram,
            cpuSeconds: Double(cpu) / 1e9, wallSeconds: Double(wall) / 1e9, serverCPUSeconds: serverCPU,
            serverCoreBusySeconds: coreBusy)
    }

    /// Waits until every outstanding event is answered.
    private func drain() throws(LoadError) {
        let deadline = Clock.now() + Clock.nanoseconds(stallSeconds)
        for id in connections.indices { connections[id].wantsEvent = false }
        while outstanding > 0 {
            try serviceOnce()
            if Clock.now() > deadline {
                throw .server("\(outstanding) events still unanswered \(stallSeconds) s after the closed loop stopped")
            }
        }
    }

    /// Services the connections for `seconds` with nothing to send (idle sessions).
    func settle(seconds: Double) throws(LoadError) {
        let end = Clock.now() + Clock.nanoseconds(seconds)
        while Clock.now() < end { try serviceOnce() }
    }

    /// Closes every open connection (close 1000) and waits until all are gone.
    func closeAll() throws(LoadError) {
        for id in connections.indices {
            switch connections[id].phase {
            case .connecting, .joining, .ready:
                move(id, to: .closing)
                // After whatever the connection still has to write.
                connections[id].socket.close(code: 1000, reason: "load generator done")
            default:
                break
            }
        }
        let deadline = Clock.now() + Clock.nanoseconds(stallSeconds * 2)
        while liveCount > 0 {
            try serviceOnce()
            if Clock.now() > deadline {
                throw .server("\(liveCount) connections still open \(stallSeconds * 2) s after closing them")
            }
        }
    }

    // MARK: Plumbing

    private func serviceOnce() throws(LoadError) {
        do {
            try loop.serviceOnce()
        } catch {
            throw .generator(error.description)
        }
        if let fault { throw fault }
    }

    private func connect(_ endpoint: Endpoint) {
        let id = connections.count
        let socket = WebSocketClientConnection(on: loop, tag: id, delegate: self)
        // In the table before `connect`, which may already report a failure.
        connections.append(LoadConnection(endpoint: endpoint, socket: socket))
        count(.connecting, by: 1)
        let (path, subprotocol) = paths[endpoint]!
        socket.connect(host: "127.0.0.1", port: port, path: path, origin: origin, subprotocol: subprotocol)
    }

    /// Moves a connection to `phase`, keeping the counts in step.
    func move(_ id: Int, to phase: LoadConnection.Phase) {
        let old = connections[id].phase
        guard old != phase else { return }
        count(old, by: -1)
        count(phase, by: 1)
        connections[id].phase = phase
    }

    private func count(_ phase: LoadConnection.Phase, by delta: Int) {
        switch phase {
        case .connecting, .joining:
            inFlight += delta
            liveCount += delta
        case .ready:
            readyCount += delta
            liveCount += delta
        case .closing:
            liveCount += delta
        case .closed:
            break
        case .failed:
            failedCount += delta
        }
    }
}
