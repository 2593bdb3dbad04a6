import FootlightServer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The debug assertion that keeps libwebsockets on its loop thread (RELIABILITY.md
/// T27; TSan cannot see inside the uninstrumented library, so confinement is checked
/// by this assertion instead). Every `lws_*` call site asserts it, so the socket tests
/// would trap if any of them touched a context from another thread; this test proves
/// the assertion is compiled in where the tests run, sanitizer builds included. The
/// probe is a client thread, whose check is its ``ServiceLoop``'s.
@Suite struct LoopConfinementTests {
    #if DEBUG
        @Test("assertInLoop traps when called off the loop thread")
        func assertionTrapsOffTheLoop() async {
            await #expect(processExitsWith: .failure) {
                // A loop that failed to start would also end the process with a
                // failure; exit with success then, so only the assertion can pass the test.
                guard let thread = try? WebSocketClientThread(name: "confinement-probe") else { exit(0) }
                thread.assertInLoop()
                exit(0)
            }
        }
    #endif
}
