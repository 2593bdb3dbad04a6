#if canImport(Glibc)
    import Glibc
#endif

/// Facts about the machine the server runs on.
public enum System {
    /// Online processor cores.
    public static var coreCount: Int {
        Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// Nanoseconds on the system's monotonic clock (`CLOCK_MONOTONIC`): comparable
    /// between the processes of one machine, as ``ContinuousClock`` instants are not.
    public static var monotonicNanoseconds: UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Raises the soft limit on open files to the hard limit, so thousands of sockets
    /// fit. Returns the limit now in force.
    @discardableResult
    public static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(limit.rlim_cur)
    }
}
