import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The generator's clock: CLOCK_MONOTONIC in nanoseconds.
enum Clock {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Nanoseconds in `seconds`.
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(max(0, seconds) * 1e9)
    }
}

/// CPU time this process has used, user plus system, from `getrusage`.
enum ProcessCPU {
    static func nanoseconds() -> UInt64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func total(_ time: timeval) -> UInt64 {
            UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1_000
        }
        return total(usage.ru_utime) + total(usage.ru_stime)
    }
}

/// One core's busy time, from `/proc/stat` (clock ticks): everything but idle and
/// iowait, so other processes, interrupts and (in a VM) steal count too.
enum CoreTime {
    /// Busy seconds of core `index` since boot, or nil when it is not listed.
    static func busySeconds(core index: Int) -> Double? {
        guard index >= 0, let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        let label = "cpu\(index) "
        guard let line = stat.split(separator: "\n").first(where: { $0.hasPrefix(label) }) else { return nil }
        // user nice system idle iowait irq softirq steal …
        let ticks = line.split(separator: " ").dropFirst().prefix(8).compactMap { Double($0) }
        guard ticks.count == 8 else { return nil }
        return (ticks.reduce(0, +) - ticks[3] - ticks[4]) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// Another process's resident memory, from `/proc/PID/status`.
enum ResidentMemory {
    /// `VmRSS` of `pid` in KiB, or nil when the process or the line is missing.
    static func kibibytes(pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            // "VmRSS:\t   24968 kB"
            return line.dropFirst("VmRSS:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
                .flatMap { Int($0) }
        }
        return nil
    }
}
