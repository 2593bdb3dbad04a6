#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `pthread_mutex_t` of one owner: what ``Locked`` guards its value with, and what
/// the operators' subscriptions take around a few assignments (never while calling a
/// subscriber or an upstream). ThreadSanitizer sees it, where it does not see
/// `Synchronization.Mutex` on Linux (see ``Locked``).
struct PthreadMutex: ~Copyable, @unchecked Sendable {
    // @unchecked: a mutex is what makes sharing safe; its pointer is never handed out.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}
