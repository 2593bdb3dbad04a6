import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// CPU time a process has used, user plus system, from `/proc/PID/stat` (clock-tick
/// resolution: 10 ms): a server under measurement, or the benchmark itself.
public enum CPUTime {
    /// Seconds `pid` has used, or nil when it is gone.
    public static func seconds(pid: Int32) -> Double? {
        pid > 0 ? seconds(of: "\(pid)") : nil
    }

    /// Seconds this process has used.
    public static var ownSeconds: Double? { seconds(of: "self") }

    private static func seconds(of process: String) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": field 3 (state) onwards; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
