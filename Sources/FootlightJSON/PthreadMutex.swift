#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `pthread_mutex_t` of one owner, for the package's modules: what Footlight's
/// `Locked` guards its value with, what its operators' subscriptions take (a plain one
/// around a few assignments, never while calling a subscriber or an upstream; a
/// recursive one around each delivery), and what guards the diffs kept for shared
/// values (``SharedDiffs``). ThreadSanitizer sees it, where it does not see
/// `Synchronization.Mutex` on Linux; and it needs no newer Apple system than the rest.
package struct PthreadMutex: ~Copyable, @unchecked Sendable {
    // @unchecked: a mutex is what makes sharing safe; its pointer is never handed out.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A mutex; a recursive one may be taken again by the thread that holds it (what
    /// keeps an operator's deliveries one at a time while letting a subscriber send
    /// into its own upstream).
    package init(recursive: Bool = false) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        guard recursive else {
            pthread_mutex_init(mutex, nil)
            return
        }
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
}
