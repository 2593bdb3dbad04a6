import Footlight
import Foundation
import Logging

/// Watches the service loops for app code that overruns its budget: a turn still in
/// app code after ``budget`` whose thread is blocked (sleeping, waiting for a lock or
/// for I/O), or that has used ``budget`` of CPU time, makes the loop go on on a fresh
/// thread (``ServiceLoop/handOff(expected:)``). One slow or blocking Director then
/// delays the loop's other sessions by about the budget only. A thread that is merely
/// waiting for a core (a busy machine) is not handed off until ``backstop``.
final class LoopWatchdog: Sendable {
    /// How long one turn of app code may hold a loop.
    let budget: Duration
    /// How long a turn may hold its loop however its thread is doing.
    let backstop: Duration
    private let loops: [ServiceLoop]
    private let stopped = Locked(false)
    private let logger: Logger
    private let finished = DispatchSemaphore(value: 0)

    init(loops: [ServiceLoop], budget: Duration, logger: Logger) {
        self.loops = loops
        self.budget = budget
        backstop = max(budget * 40, .milliseconds(200))
        self.logger = logger
        let thread = Thread { [self] in watch() }
        thread.name = "footlight-watchdog"
        thread.stackSize = 256 << 10
        thread.start()
    }

    /// A turn seen in app code: since when, and the owner's CPU time then.
    private struct Sighting {
        var state: UInt64 = 0
        var since = ContinuousClock.now
        var cpu: Duration = .zero
    }

    private func watch() {
        let period = UInt32(max(250, budget.clampedNanoseconds / 2_000))  // half the budget, in µs
        var sightings = [Sighting](repeating: Sighting(), count: loops.count)
        while !stopped.withLock({ $0 }) {
            usleep(period)
            for (index, loop) in loops.enumerated() {
                let state = loop.appState.load(ordering: .sequentiallyConsistent)
                // App code running on a loop not handed off already (its new thread may
                // not have started yet on a loaded machine).
                guard ServiceLoop.mayHandOff(state) else { continue }
                guard state == sightings[index].state else {
                    sightings[index] = Sighting(state: state, since: .now, cpu: Self.cpuTime(of: loop.ownerThread))
                    continue
                }
                let held = ContinuousClock.now - sightings[index].since
                guard held >= budget else { continue }
                let running = Self.isRunnable(tid: loop.ownerTID.load(ordering: .relaxed))
                let used = Self.cpuTime(of: loop.ownerThread) - sightings[index].cpu
                guard !running || used >= budget || held >= backstop else { continue }
                if loop.handOff(expected: state) {
                    let why = running ? "used \(used) of CPU" : "blocked"
                    logger.warning(
                        "app code held \(loop.name) for \(held) (\(why)), past its \(budget) budget; the loop goes on on a new thread"
                    )
                }
            }
        }
        finished.signal()
    }

    /// CPU time `thread` has used so far.
    private static func cpuTime(of thread: pthread_t) -> Duration {
        var clock = clockid_t()
        var time = timespec()
        guard pthread_getcpuclockid(thread, &clock) == 0, clock_gettime(clock, &time) == 0 else { return .zero }
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// Whether the kernel thread `tid` is running or waiting for a core (state R), as
    /// opposed to blocked.
    private static func isRunnable(tid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        // "tid (name) S ...": the state follows the name, which may hold spaces.
        let rest = stat[stat.index(after: close)...].drop { $0 == " " }
        return rest.first == "R"
    }

    /// Stops watching and waits for the watchdog's thread to end.
    func stop() {
        let first = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        if first { finished.wait() }
    }
}
