import FootlightServer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The check that keeps libwebsockets on its loop thread (RELIABILITY.md T27; TSan
/// cannot see inside the uninstrumented library, so confinement is checked by this
/// precondition instead). Every `lws_*` call site checks it, so the socket tests would
/// trap if any of them touched a context from another thread; this test proves the
/// check is compiled in, in debug, release and sanitizer builds alike. The probe is a
/// client thread, whose check is its ``ServiceLoop``'s.
@Suite struct LoopConfinementTests {
    @Test("preconditionInLoop traps when called off the loop thread")
    func checkTrapsOffTheLoop() async {
        await #expect(processExitsWith: .failure) {
            // A loop that failed to start would also end the process with a
            // failure; exit with success then, so only the check can pass the test.
            guard let thread = try? WebSocketClientThread(name: "confinement-probe") else { exit(0) }
            thread.preconditionInLoop()
            exit(0)
        }
    }
}
