/// Per-session bounds. Every queue a session keeps is bounded by one of these.
public struct SessionLimits: Sendable, Equatable {
    /// How long a session whose socket dropped is kept for a resume (Blazor: 3 min).
    public var retention: Duration = .seconds(180)
    /// The most disconnected sessions kept at once; past it the oldest is dropped.
    public var maximumRetained: Int = 1000
    /// Sent-but-unacknowledged messages kept for replay after a resume.
    public var replayMessages: Int = 64
    /// Bytes of sent-but-unacknowledged messages kept for replay after a resume.
    public var replayBytes: Int = 1 << 20
    /// Once this many bytes wait for the socket, the session stops producing patches
    /// and coalesces further changes into one diff for when the client catches up.
    public var outboxHighWater: Int = 64 << 10
    /// Sustained events per second accepted from one session.
    public var eventsPerSecond: Double = 50
    /// Events accepted in a burst above the sustained rate.
    public var eventBurst: Double = 100
    /// Advisory messages (errors) queued while the socket is slow; older ones are dropped.
    public var pendingAdvisories: Int = 16
    /// The most stages a session shows at once, components included (a component holds
    /// about 3.7 KiB). A component placed past it is not shown (its element stays
    /// empty) and the log says so: an app that places one per row of an endless list
    /// fills its log, not the server's memory.
    public var maximumStages: Int = 4096

    public init() {}
}
