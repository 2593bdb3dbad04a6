import FootlightServer
import FootlightTesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Streamed route bodies over real sockets: pulled only as fast as the client reads,
/// stopped when it goes, cut when the writer fails.
@Suite(.timeLimit(.minutes(1)))
struct RouteStreamTests {
    final class Probe: Sendable {
        let produced = Atomic<Int>(0)
        /// When the writer stopped, on its own thread (a worker's, not the test's).
        private let stop = Mutex<ContinuousClock.Instant?>(nil)
        var stopped: Bool { stoppedAt != nil }
        var stoppedAt: ContinuousClock.Instant? { stop.withLock { $0 } }
        func stopping() { stop.withLock { $0 = $0 ?? .now } }
    }

    static let chunkSize = 64 << 10

    /// A route at /big streaming `chunks` pieces of 64 KiB, piece i filled with i % 251.
    private func server(chunks: Int, probe: Probe, configure: (inout ServerConfiguration) -> Void = { _ in })
        throws -> Server
    {
        var routes = Routes()
        routes.get("/big") { _ in
            .stream(contentType: "application/octet-stream") { writer in
                do {
                    for index in 0..<chunks {
                        probe.produced.add(1, ordering: .relaxed)
                        try await writer.write([UInt8](repeating: UInt8(index % 251), count: Self.chunkSize))
                    }
                } catch {
                    probe.stopping()
                    throw error
                }
            }
        }
        routes.get("/cut") { _ in
            .stream(contentType: "text/plain") { writer in
                try await writer.write("first part\n")
                throw HTTPError.badRequest("the writer failed")
            }
        }
        routes.get("/quick") { _ in .text("quick") }
        return try RouteTestSupport.start(routes, configure: configure)
    }

    @Test("A slow reader of a 32 MiB download: the writer is not pulled ahead of it, and every byte arrives")
    func slowReader() async throws {
        let probe = Probe()
        let chunks = 512
        let server = try server(chunks: chunks, probe: probe)
        defer { server.shutdown() }
        let (ahead, stillAhead, body) = try await offThePool { () throws -> (Int, Int, [UInt8]) in
            let socket = try HTTPTestSocket(port: server.port, receiveBuffer: 16 << 10)
            try socket.write(Array("GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            var raw = socket.read()
            // The reader stops: the server's writes fill the sockets' buffers, then wait.
            usleep(1_000_000)
            let ahead = probe.produced.load(ordering: .relaxed)
            usleep(500_000)
            let stillAhead = probe.produced.load(ordering: .relaxed)
            raw += socket.readToEnd()
            return (ahead, stillAhead, raw)
        }
        // Kernel buffers on loopback (up to 4 MiB sent, 32 KiB received) and two pieces in
        // the server: about 70 pieces at most of the 512.
        #expect(ahead <= 100, "the writer was pulled \(ahead) pieces ahead of a reader that stopped")
        #expect(stillAhead == ahead, "the writer went on while the reader had stopped")
        let response = try HTTPTestResponse(body)
        #expect(response.status == 200 && response.headers["transfer-encoding"] == "chunked")
        #expect(response.isComplete)
        #expect(response.body.count == chunks * Self.chunkSize)
        guard response.body.count == chunks * Self.chunkSize else { return }
        let wrong = (0..<chunks).first { (index: Int) -> Bool in
            let mark = UInt8(index % 251)
            let first = response.body[index * Self.chunkSize]
            let last = response.body[(index + 1) * Self.chunkSize - 1]
            return first != mark || last != mark
        }
        #expect(wrong == nil)
        #expect(probe.produced.load(ordering: .relaxed) == chunks)
    }

    @Test("A client that goes away stops the writer and frees its place")
    func clientGone() async throws {
        let probe = Probe()
        let server = try server(chunks: .max, probe: probe) { $0.routeLimits.maximumConcurrentHandlers = 1 }
        defer { server.shutdown() }
        try await offThePool {
            let socket = try HTTPTestSocket(port: server.port)
            try socket.write(Array("GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            _ = socket.read()
        }  // the socket closes here
        for _ in 0..<500 where !probe.stopped { try await Task.sleep(for: .milliseconds(10)) }
        #expect(probe.stopped)
        var status = 0
        for _ in 0..<100 where status != 200 {
            status = try await HTTPTestClient.send(port: server.port, "GET", "/quick").status
            if status != 200 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(status == 200)
    }

    @Test("A reader that stops reading is cut after the idle limit, and the writer stops")
    func idleReader() async throws {
        let probe = Probe()
        let server = try server(chunks: .max, probe: probe) { $0.routeLimits.idleSeconds = 1 }
        defer { server.shutdown() }
        let socket = try HTTPTestSocket(port: server.port, receiveBuffer: 16 << 10)
        try socket.write(Array("GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let start = ContinuousClock.now
        for _ in 0..<1000 where !probe.stopped { try await Task.sleep(for: .milliseconds(10)) }
        // Measured where the writer stopped: the test's task may wait seconds for a
        // thread of the cooperative pool while other tests hold it.
        let stoppedAt = try #require(probe.stoppedAt)
        #expect(stoppedAt - start < .seconds(8))
        let rest = try await offThePool { [socket] in try HTTPTestResponse(socket.readToEnd()) }
        #expect(!rest.isComplete, "the body was cut, not ended")
    }

    @Test("A writer that fails cuts the body (no last chunk); HEAD gets the head and runs no writer")
    func cutAndHead() async throws {
        let probe = Probe()
        let server = try server(chunks: 4, probe: probe)
        defer { server.shutdown() }
        let cut = try await HTTPTestClient.send(port: server.port, "GET", "/cut")
        #expect(cut.status == 200 && cut.text == "first part\n" && !cut.isComplete)
        let head = try await HTTPTestClient.send(port: server.port, "HEAD", "/big")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["transfer-encoding"] == "chunked")
        #expect(probe.produced.load(ordering: .relaxed) == 0)
        let whole = try await HTTPTestClient.send(port: server.port, "GET", "/big")
        #expect(whole.isComplete && whole.body.count == 4 * Self.chunkSize)
    }
}
