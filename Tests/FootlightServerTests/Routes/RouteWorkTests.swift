import FootlightServer
import FootlightTesting
import Foundation
import Synchronization
import Testing

/// Route handlers off the loops: a bounded number at once, a time limit, a failure that
/// is a 500 and not a crash.
@Suite(.timeLimit(.minutes(1)))
struct RouteWorkTests {
    /// A gate handlers wait at until the test opens it.
    final class Gate: Sendable {
        private let waiting = Atomic<Int>(0)
        private let opened = Atomic<Bool>(false)
        func pass() async {
            waiting.add(1, ordering: .relaxed)
            while !opened.load(ordering: .acquiring) { try? await Task.sleep(for: .milliseconds(5)) }
        }
        private let blocked = Atomic<Int>(0)
        /// Blocks the calling thread (a worker's) until the gate opens, 30 s at most.
        func block() {
            waiting.add(1, ordering: .relaxed)
            blocked.add(1, ordering: .relaxed)
            for _ in 0..<6000 where !opened.load(ordering: .acquiring) { usleep(5000) }
            blocked.subtract(1, ordering: .relaxed)
        }
        var count: Int { waiting.load(ordering: .relaxed) }
        /// Threads blocked in ``block()`` now.
        var blocking: Int { blocked.load(ordering: .relaxed) }
        func open() { opened.store(true, ordering: .releasing) }
    }

    @Test("Handlers beyond the limit get 503 with Retry-After, and run again once places are free")
    func poolExhaustion() async throws {
        let gate = Gate()
        var routes = Routes()
        routes.get("/slow") { _ in
            await gate.pass()
            return .text("done")
        }
        let server = try RouteTestSupport.start(routes) {
            $0.routeLimits.maximumConcurrentHandlers = 2
            $0.routeLimits.retryAfterSeconds = 3
        }
        defer { server.shutdown() }
        let first = Task { try await HTTPTestClient.send(port: server.port, "GET", "/slow") }
        let second = Task { try await HTTPTestClient.send(port: server.port, "GET", "/slow") }
        for _ in 0..<500 where gate.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(gate.count == 2)
        let refused = try await HTTPTestClient.send(port: server.port, "GET", "/slow")
        #expect(refused.status == 503 && refused.headers["retry-after"] == "3")
        gate.open()
        #expect(try await first.value.text == "done")
        #expect(try await second.value.text == "done")
        #expect(try await HTTPTestClient.send(port: server.port, "GET", "/slow").status == 200)
    }

    @Test("A handler past the time limit gets 504, async or blocking, and other routes go on meanwhile")
    func timeLimit() async throws {
        let gate = Gate()
        var routes = Routes()
        routes.get("/sleeps") { _ in
            try await Task.sleep(for: .seconds(20))
            return .text("late")
        }
        routes.get("/blocks") { _ in
            gate.block()  // blocks its worker thread until the test has had its 504
            return .text("late")
        }
        routes.get("/quick") { _ in .text("quick") }
        let server = try RouteTestSupport.start(routes) {
            $0.routeLimits.timeLimit = .milliseconds(300)
            $0.routeLimits.workerThreads = 2
        }
        defer {
            gate.open()
            server.shutdown()
        }
        // Times are when the answer reached the client's thread: the test's own task may
        // wait seconds for a thread of the cooperative pool while other tests hold it.
        let start = ContinuousClock.now
        let sleeping = try await HTTPTestClient.send(port: server.port, "GET", "/sleeps")
        #expect(sleeping.status == 504)
        #expect(sleeping.receivedAt - start < .seconds(3))
        let blocking = Task { try await HTTPTestClient.send(port: server.port, "GET", "/blocks") }
        for _ in 0..<500 where gate.count == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(gate.count == 1)
        #expect(try await HTTPTestClient.send(port: server.port, "GET", "/quick").text == "quick")
        #expect(try await blocking.value.status == 504)
        #expect(gate.blocking == 1, "the 504 went out while its handler still blocked")
        gate.open()
    }

    @Test("A handler that throws gets 500 with no details, logged, and the server goes on serving")
    func thrownError() async throws {
        struct Broken: Error {}
        var routes = Routes()
        routes.get("/broken") { _ in throw Broken() }
        routes.get("/bad-header") { _ in RouteResponse(status: 200, headers: ["x-evil": "a\r\nset-cookie: x=1"]) }
        routes.get("/fine") { _ in .text("fine") }
        routes.get("/nothing") { _ in RouteResponse(status: 204, body: .bytes(Array("dropped".utf8))) }
        let server = try RouteTestSupport.start(routes)
        defer { server.shutdown() }
        for _ in 0..<3 {
            let broken = try await HTTPTestClient.send(port: server.port, "GET", "/broken")
            #expect(broken.status == 500 && !broken.text.contains("Broken"))
        }
        let injected = try await HTTPTestClient.send(port: server.port, "GET", "/bad-header")
        #expect(injected.status == 500 && injected.headers["set-cookie"] == nil)
        #expect(try await HTTPTestClient.send(port: server.port, "GET", "/fine").text == "fine")
        let nothing = try await HTTPTestClient.send(port: server.port, "GET", "/nothing")
        #expect(nothing.status == 204 && nothing.body.isEmpty && nothing.headers["content-length"] == nil)
    }

    @Test("Two requests on one kept-alive connection are both answered")
    func keepAlive() async throws {
        var routes = Routes()
        routes.get("/n/{n}") { .text("n=\($0.parameters["n"]!)") }
        let server = try RouteTestSupport.start(routes)
        defer { server.shutdown() }
        let text = try await offThePool {
            let socket = try HTTPTestSocket(port: server.port)
            try socket.write(Array("GET /n/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            var received: [UInt8] = []
            while !String(decoding: received, as: UTF8.self).contains("n=1") { received += socket.read() }
            try socket.write(Array("GET /n/2 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            return String(decoding: received + socket.readToEnd(), as: UTF8.self)
        }
        #expect(text.contains("n=1") && text.contains("n=2"))
    }
}
