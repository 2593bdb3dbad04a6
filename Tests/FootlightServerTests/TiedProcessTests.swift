import FootlightTesting
import Foundation
import Testing

/// The servers a test starts end with the test process (``TiedProcess``).
@Suite struct TiedProcessTests {
    /// Runs `python3 -c script` tied, and returns what it printed.
    static func printed(byTied script: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try TiedProcess.run(process)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    @Test("A tied child is killed by the kernel when its parent ends, and starts blocking no signal")
    func deathSignalAndMask() throws {
        let script = """
            import ctypes, signal
            libc = ctypes.CDLL(None)
            value = ctypes.c_int()
            libc.prctl(2, ctypes.byref(value))  # PR_GET_PDEATHSIG
            blocked = [line.split()[1] for line in open('/proc/self/status') if line.startswith('SigBlk:')][0]
            print(value.value, int(blocked, 16))
            """
        let fields = try Self.printed(byTied: script).split(separator: " ").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(fields == ["\(SIGKILL)", "0"], "parent-death signal, then the blocked signals' mask")
    }
}
