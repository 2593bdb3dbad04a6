import Footlight
import FootlightJSON
import FootlightProbes
import FootlightServer
import FootlightTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(5)))
struct FaultInjectionTests {
    /// Reliability plan T22: at least 1,000 cuts over at least 10,000 events.
    @Test("Cuts at random byte offsets (mid-frame, both directions) lose no event and apply none twice")
    func randomCuts() async throws {
        let (sessions, events, cuts) = (10, 1_000, 100)  // per session
        let server = try TestServer.start(configure: Self.unthrottled) { _ in [ProbeScenes.ledgerStage()] }
        defer { server.shutdown() }
        let proxy = try FaultProxy(
            upstreamPort: server.port, policy: .afterBytes(1024...4096), random: SeededGenerator(seed: 22),
            lifetime: .seconds(300))
        defer { proxy.stop() }

        let deadline = ContinuousClock.now + .seconds(240)
        let runs = try await withThrowingTaskGroup(of: (TestClient, Int).self) { group in
            for _ in 0..<sessions {
                group.addTask {
                    let client = try await Self.connect(port: proxy.port)
                    let driver = LedgerDriver(client: client, events: events, cuts: cuts, window: 8)
                    return (client, try await driver.run(deadline: deadline))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let statistics = proxy.statistics

        var totals = (sent: 0, lost: Int64(0), doubled: Int64(0), resumes: 0, snapshots: 0)
        for (client, sent) in runs {
            let mirror = client.observation.mirror
            let replica = client.document(of: "ledger")
            let token = try #require(mirror.token)
            let view = try await ServerView.documents(ofSession: token, port: server.port)
            let figures = try #require(LedgerFigures(view.documents["ledger"]))
            totals.sent += sent
            totals.lost += figures.lost(sent: sent)
            totals.doubled += figures.doubled
            totals.resumes += mirror.resumes
            totals.snapshots += mirror.snapshots
            #expect(replica == view.documents["ledger"], "the client's replica equals the server's document")
            #expect(view.mirror.snapshots == 1, "the server's view came as a snapshot")
            #expect(figures.count == Int64(sent) && figures.distinct == Int64(sent), "\(figures) for \(sent) sent")
            #expect(figures.sum == Int64(sent * (sent + 1) / 2) && figures.last == Int64(sent))
            #expect(figures.unordered == 0, "adds applied in the order sent")
            #expect(mirror.violations.isEmpty, "\(mirror.violations.prefix(3))")
            #expect(mirror.errors.isEmpty, "\(mirror.errors.prefix(3))")
        }
        print(
            """
            T22 fault proxy: \(sessions) sessions, \(totals.sent) events, \(statistics); \
            lost \(totals.lost), applied twice \(totals.doubled); \(totals.resumes) resumes \
            (\(totals.snapshots) with a snapshot)
            """)
        #expect(statistics.cuts >= sessions * cuts, "\(statistics.cuts) cuts")
        #expect(totals.sent >= sessions * events)
        #expect(statistics.cutsMidFrame > 0 && statistics.cutsClientToServer > 0 && statistics.cutsServerToClient > 0)
        #expect(totals.lost == 0)
        #expect(totals.doubled == 0)
    }

    /// Reliability plan T26.
    @Test("5,000 duplicated and stale re-sends of events are acknowledged but none is applied twice")
    func duplicatedSends() async throws {
        let server = try TestServer.start(configure: Self.unthrottled) { _ in [ProbeScenes.ledgerStage()] }
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        var random = SeededGenerator(seed: 26)
        let events = 2_500
        for number in 1...events {
            try await client.send("add", in: "ledger", value: .int(Int64(number)))
            // A retransmit of this event, and a late one of an earlier event.
            try client.sendRaw(Self.add(number))
            try client.sendRaw(Self.add(Int.random(in: 1...number, using: &random)))
        }
        // One more after every duplicate: once it is acknowledged, all were handled.
        try await client.send("add", in: "ledger", value: .int(Int64(events + 1)))
        try await client.waitUntilAcknowledged(timeout: .seconds(60))
        try await client.waitUntil("/last", in: "ledger", equals: .int(Int64(events + 1)))
        let figures = try #require(LedgerFigures(client.document(of: "ledger")))
        #expect(figures.count == Int64(events + 1) && figures.doubled == 0, "\(figures)")
        #expect(figures.unordered == 0)
        #expect(client.observation.mirror.errors.isEmpty)
    }

    /// The raw event message that adds `number` to the ledger.
    static func add(_ number: Int) -> String {
        #"{"t":"event","n":\#(number),"stage":"ledger","name":"add","value":\#(number)}"#
    }

    @Test("A client whose socket ends with an event unacknowledged is told so at once, not at its timeout")
    func unacknowledgedWhenTheSocketEnds() async throws {
        let server = try TestServer.start { _ in
            let stage = Stage(name: "slow")
            let wait = PassthroughSubject<Void, Never>()
            stage.on("wait", send: wait)
            stage.keep(wait.sink { Thread.sleep(forTimeInterval: 0.3) })  // holds the acknowledgement past the cut
            return [stage]
        }
        defer { server.shutdown() }
        let proxy = try FaultProxy(upstreamPort: server.port, policy: .never, random: SeededGenerator(seed: 7))
        defer { proxy.stop() }
        let client = try await TestClient.connect(port: proxy.port)
        defer { client.close() }
        try await client.send("wait", in: "slow")
        proxy.cutAll()
        do {
            try await client.waitUntilAcknowledged(timeout: .seconds(60))
            Issue.record("acknowledged on a socket that was cut")
        } catch let error as TestClientError where error.kind == .connectionFailed {
            #expect(error.message.contains("1 event(s) unacknowledged"))
        }
    }

    /// No rate limit and room for every test connection from 127.0.0.1.
    static func unthrottled(_ configuration: inout ServerConfiguration) {
        configuration.sessionLimits.eventsPerSecond = 1_000_000
        configuration.sessionLimits.eventBurst = 1_000_000
        configuration.maximumConnectionsPerClient = 10_000
    }

    /// Joins a new session through the proxy, trying again if the proxy cuts the first
    /// sockets before the session is joined.
    static func connect(port: Int) async throws -> TestClient {
        var failure: (any Error)?
        for _ in 0..<10 {
            do {
                return try await TestClient.connect(port: port)
            } catch let error as TestClientError where error.kind == .connectionFailed {
                failure = error
            }
        }
        throw failure!
    }
}
