import DequeModule
import Foundation
import Synchronization

/// The threads route handlers run on, apart from the service loops: a task executor
/// (handlers' tasks prefer it, so their synchronous parts, blocking calls included, run
/// here), and the places that bound how many handlers run at once.
final class RouteWorkers: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs`, `stopping` and `running` are guarded by `condition`.
    private let condition = NSCondition()
    private var jobs = Deque<UnownedJob>()
    private var stopping = false
    /// Handlers holding a place (started and not yet ended).
    private let places = Atomic<Int>(0)
    let maximumPlaces: Int

    init(threads: Int, maximumPlaces: Int) {
        self.maximumPlaces = max(1, maximumPlaces)
        for index in 0..<max(1, threads) {
            let thread = Thread { [self] in work() }
            thread.name = "footlight-routes-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Takes a place for a handler, or nil when every place is taken.
    func takePlace() -> RoutePlace? {
        let taken = places.add(1, ordering: .acquiringAndReleasing).newValue
        guard taken <= maximumPlaces else {
            releasePlace()
            return nil
        }
        return RoutePlace(self)
    }

    fileprivate func releasePlace() {
        places.subtract(1, ordering: .acquiringAndReleasing)
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Handlers holding a place now.
    var busyPlaces: Int { places.load(ordering: .relaxed) }

    /// Lets the threads end once no handler holds a place and no job is left (a handler
    /// still running keeps them until it returns).
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty && !(stopping && places.load(ordering: .acquiring) == 0) { condition.wait() }
            guard let job = jobs.popFirst() else {
                condition.unlock()
                return
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// One handler's place among ``RouteLimits/maximumConcurrentHandlers``, given back once.
final class RoutePlace: Sendable {
    private let workers: RouteWorkers
    private let released = Atomic<Bool>(false)

    fileprivate init(_ workers: RouteWorkers) {
        self.workers = workers
    }

    func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        workers.releasePlace()
    }

    deinit {
        release()
    }
}
