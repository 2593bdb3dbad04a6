import FootlightTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `footlight-demo` runs its server in a ServiceGroup: on SIGTERM or SIGINT it tells its
/// pages, closes their sockets and exits 0, well within its drain timeout (30 s here).
@Suite(.timeLimit(.minutes(1)))
struct DemoSignalTests {
    @Test(
        "footlight-demo exits 0 promptly on SIGTERM and on SIGINT, its connected page told first",
        arguments: [SIGTERM, SIGINT])
    func exitOnSignal(signal: Int32) async throws {
        let demo = try DemoProcess(arguments: ["--app", "counter", "--log-level", "warning", "--drain-timeout", "30"])
        let client = try await TestClient.connect(port: demo.port)
        let start = ContinuousClock.now
        demo.terminate(with: signal)
        let status = try await demo.waitForExit(timeout: .seconds(20))
        let took = ContinuousClock.now - start
        #expect(status == 0)
        #expect(took < .seconds(10), "exited after \(took)")
        let close = try await client.waitForClose()
        #expect(close?.code == 1001)
        #expect(client.observation.mirror.saidBye)
    }
}
