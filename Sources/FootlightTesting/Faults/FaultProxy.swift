import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP proxy on 127.0.0.1 that forwards each connection to a server's port and cuts
/// it where a network would fail: at a random byte offset, mid-frame included, in
/// either direction, or all connections at once.
///
/// ```swift
/// let proxy = try FaultProxy(
///     upstreamPort: server.port, policy: .afterBytes(1024...4096), random: SeededRandom(seed: 7))
/// defer { proxy.stop() }
/// let client = try await TestClient.connect(port: proxy.port)
/// ```
///
/// A cut forwards the bytes up to the chosen offset, then closes both sockets, with a
/// FIN or (at random) a reset; whatever either side sent after that is lost. The proxy
/// runs on a thread of its own for at most `lifetime`.
public final class FaultProxy: Sendable {
    /// When the proxy cuts a connection by itself.
    public enum CutPolicy: Sendable, Equatable {
        /// Never: only ``FaultProxy/cutAll()`` cuts.
        case never
        /// After a number of bytes (both directions together) drawn uniformly from the
        /// range for each connection. The cut falls wherever that byte is: inside the
        /// handshake, a frame header or a payload, or between frames.
        case afterBytes(ClosedRange<Int>)
    }

    /// What the proxy has done so far.
    public struct Statistics: Sendable, Equatable, CustomStringConvertible {
        /// Connections accepted.
        public internal(set) var connections = 0
        /// Connections cut (by the policy or ``FaultProxy/cutAll()``).
        public internal(set) var cuts = 0
        /// Policy cuts by where the forwarded stream stopped.
        public internal(set) var cutsMidFrame = 0
        public internal(set) var cutsBetweenFrames = 0
        public internal(set) var cutsInHandshake = 0
        /// Policy cuts by the direction whose byte was the last forwarded.
        public internal(set) var cutsClientToServer = 0
        public internal(set) var cutsServerToClient = 0
        /// Cuts that closed with a reset rather than a FIN.
        public internal(set) var resets = 0
        /// Bytes forwarded, both directions.
        public internal(set) var bytesForwarded = 0

        public var description: String {
            """
            \(connections) connections, \(cuts) cuts (\(cutsMidFrame) mid-frame, \(cutsBetweenFrames) between frames, \
            \(cutsInHandshake) in a handshake; \(cutsClientToServer) client→server, \(cutsServerToClient) \
            server→client; \(resets) resets), \(bytesForwarded) bytes forwarded
            """
        }
    }

    /// The port clients connect to.
    public let port: Int
    private let control: ProxyControl

    /// Listens on 127.0.0.1 (an ephemeral port) and forwards to 127.0.0.1:`upstreamPort`,
    /// cutting connections as `policy` says with offsets drawn from `random`. The proxy
    /// stops by itself after `lifetime`.
    public init(
        upstreamPort: Int, policy: CutPolicy, random: some RandomNumberGenerator & Sendable,
        lifetime: Duration = .seconds(600)
    ) throws(LoopbackSocketError) {
        let listener = try ProxySockets.listen()
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(listener.descriptor)
            throw .socket("the fault proxy could not make its wake-up pipe: \(String(cString: strerror(errno)))")
        }
        for end in pipeEnds { ProxySockets.makeNonBlocking(end) }
        port = listener.port
        control = ProxyControl(wake: (pipeEnds[0], pipeEnds[1]))
        let loop = ProxyLoop(
            listener: listener.descriptor, upstreamPort: upstreamPort, policy: policy, random: random,
            deadline: .now + lifetime, control: control)
        nonisolated(unsafe) let confined = loop  // handed to the proxy thread once
        let thread = Thread { confined.run() }
        thread.name = "footlight-fault-proxy"
        thread.start()
    }

    /// What the proxy has done so far.
    public var statistics: Statistics { control.state.withLock { $0.statistics } }

    /// Cuts every open connection now (a proxy restart): both sockets closed, nothing
    /// more forwarded. New connections are accepted as before.
    public func cutAll() {
        control.state.withLock { $0.cutAllRequests += 1 }
        control.wakeUp()
    }

    /// Closes every connection and the listening socket, and waits (up to 5 s) for the
    /// proxy's thread to end. Safe to call more than once.
    public func stop() {
        let first = control.state.withLock { state -> Bool in
            defer { state.stopRequested = true }
            return !state.stopRequested
        }
        guard first else { return }
        control.wakeUp()
        _ = control.finished.wait(timeout: .now() + 5)
    }

    deinit {
        stop()
    }
}

/// What the proxy's thread and its owner share.
final class ProxyControl: Sendable {
    struct State {
        var statistics = FaultProxy.Statistics()
        var cutAllRequests = 0
        var stopRequested = false
    }
    let state = Mutex(State())
    /// A pipe whose read end is in the thread's poll set.
    let wake: (read: Int32, write: Int32)
    /// Signalled when the thread has closed everything.
    let finished = DispatchSemaphore(value: 0)

    init(wake: (read: Int32, write: Int32)) {
        self.wake = wake
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    func wakeUp() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    func record(_ change: (inout FaultProxy.Statistics) -> Void) {
        state.withLock { change(&$0.statistics) }
    }
}
