#if canImport(Glibc)
    import Glibc
#endif

/// A pipe that wakes a thread waiting in `poll`: any thread may ``signal()``; the
/// waiting thread polls ``readEnd`` and ``drain()``s it.
final class WakePipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws(RedisError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw RedisError(.io, "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Wakes the waiting thread (a full pipe already will).
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }
}
