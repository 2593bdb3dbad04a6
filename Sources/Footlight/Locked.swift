import FootlightJSON

/// A value that threads share, guarded by a `pthread_mutex_t`.
///
/// Footlight uses it, and apps may, where Swift's `Synchronization.Mutex` would do:
/// on Linux that one waits with raw futex calls inside the uninstrumented standard
/// library, so ThreadSanitizer never sees it acquired or released and reports every
/// access it guards as a race. TSan intercepts pthread mutexes, so under
/// `swift test --sanitize=thread` the accesses made under this lock are checked for
/// real, and a report means a real race.
///
/// ```swift
/// let hits = Locked(0)
/// hits.withLock { $0 += 1 }
/// ```
public final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only between lock and unlock.
    private let mutex = PthreadMutex()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock. `body` must not call
    /// `withLock` on the same instance (the mutex is not recursive).
    public func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E)
        -> sending Result
    {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&value)
    }
}
