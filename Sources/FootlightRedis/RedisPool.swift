import Dispatch
import Footlight

/// A few connections to one Redis, shared by threads that run blocking commands
/// (services called from sessions and timers). At most ``capacity`` are open; a caller
/// waits up to the timeout for one to be free. A connection that failed is closed, and
/// the next caller makes a new one.
public final class RedisPool: Sendable {
    public let address: RedisAddress
    /// The most connections open at once.
    public let capacity: Int
    private let timeout: Duration
    /// A connection waiting in the pool; only the thread that takes it uses it.
    private struct Idle: @unchecked Sendable {
        let connection: RedisConnection
    }
    private let idle = Locked<[Idle]>([])
    private let permits: DispatchSemaphore

    /// A pool of up to `capacity` connections to `address`, each waiting at most
    /// `timeout` to connect, read or write.
    public init(address: RedisAddress, capacity: Int = 4, timeout: Duration = .seconds(1)) {
        self.address = address
        self.capacity = max(1, capacity)
        self.timeout = timeout
        permits = DispatchSemaphore(value: self.capacity)
    }

    /// Runs `body` with a connection of its own.
    ///
    /// - Throws: ``RedisError`` from `body`, or when no connection is free within the
    ///   timeout or none can be made.
    public func withConnection<T>(_ body: (RedisConnection) throws(RedisError) -> T) throws(RedisError) -> T {
        guard permits.wait(timeout: .now() + .nanoseconds(timeout.clampedNanoseconds)) == .success else {
            throw RedisError(.io, "all \(capacity) connections to Redis at \(address) stayed busy for \(timeout)")
        }
        defer { permits.signal() }
        var reusable: RedisConnection?
        while reusable == nil, let kept = idle.withLock({ $0.popLast() }) {
            // An idle connection has nothing to read: bytes or an end of file mean the
            // server closed it (a Redis restarted since), and a command sent on it would
            // fail, or worse, be run without its answer arriving.
            if !kept.connection.isReadable(within: .zero) { reusable = kept.connection }
        }
        let connection: RedisConnection
        if let reusable {
            connection = reusable
        } else {
            connection = try RedisConnection(to: address, timeout: timeout)
        }
        // Handed back to the pool only after this thread is done with it.
        let returned = Idle(connection: connection)
        do {
            let result = try body(connection)
            idle.withLock { $0.append(returned) }
            return result
        } catch {
            // A reply error leaves the connection usable; anything else does not.
            if error.kind == .reply { idle.withLock { $0.append(returned) } }
            throw error
        }
    }
}
