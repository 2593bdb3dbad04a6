import CLibWebSockets
import FootlightServer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The debug assertion that keeps libwebsockets on its loop thread (RELIABILITY.md
/// T27; TSan cannot see inside the uninstrumented library, so confinement is checked
/// by this assertion instead). Every `lws_*` call site asserts it, so the socket tests
/// would trap if any of them touched a context from another thread; this test proves
/// the assertion is compiled in where the tests run, sanitizer builds included.
@Suite struct LoopConfinementTests {
    #if DEBUG
        @Test("assertInLoop traps when called off the loop thread")
        func assertionTrapsOffTheLoop() async {
            await #expect(processExitsWith: .failure) {
                // A loop that failed to start would also end the process with a
                // failure; exit with success then, so only the assertion can pass the test.
                guard let loop = try? ServiceLoop(name: "confinement-probe", makeContext: makeBareContext) else {
                    exit(0)
                }
                loop.assertInLoop()
                exit(0)
            }
        }
    #endif
}

/// A context with no listener and libwebsockets' default protocol: enough for a loop
/// thread to exist.
private func makeBareContext(_ user: UnsafeMutableRawPointer) -> OpaquePointer? {
    var info = lws_context_creation_info()
    info.port = footlight_lws_port_no_listen()
    info.user = user
    return lws_create_context(&info)
}
