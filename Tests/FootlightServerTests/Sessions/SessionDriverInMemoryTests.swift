import Footlight
import FootlightJSON
import FootlightTesting
import Logging
import Testing

@testable import FootlightServer

/// The live session driver (turns, mailbox, flush, drains, closes) over the in-memory
/// transport: the seam's second implementation, with no socket and no libwebsockets.
@Suite("SessionDriver over the in-memory transport")
struct SessionDriverInMemoryTests {
    /// A counter at the root: "increment" adds one.
    struct TallyScene: Scene {
        func makeStage(context: Context) -> Stage { CountingStage().stage }
    }

    /// A registry whose sessions show a counter, with error details for the tests.
    static func registry() throws -> SessionRegistry {
        let logger = Logger(label: "footlight.in-memory-test")
        return SessionRegistry(
            sessions: .init(sendsErrorDetails: true), tokens: try SignedIDs(key: nil),
            uploads: try UploadRegistry(configuration: UploadConfiguration(), key: nil, logger: logger),
            logger: logger, entry: { context, _ in context.show(TallyScene()) })
    }

    /// A session of a new registry on a new loop, its page joined and its mount taken.
    static func joined() throws -> (SessionRegistry, InMemoryLoop, SessionDriver, InMemoryConnection) {
        let registry = try registry()
        let loop = InMemoryLoop()
        let session = try #require(registry.create(on: loop, request: SessionRequest()))
        let page = InMemoryConnection(id: 1, on: loop)
        session.attach(page, resumeAfter: nil, path: "/")
        loop.sync {}
        return (registry, loop, session, page)
    }

    static func increment(_ number: Int64) -> ClientMessage.Event {
        ClientMessage.Event(number: number, stage: "counter", name: "increment", value: nil)
    }

    @Test("A join mounts the page; an event comes back as a patch carrying its acknowledgement")
    func joinAndEvent() throws {
        let (registry, loop, session, page) = try Self.joined()
        defer { withExtendedLifetime(registry) {} }
        let joined = try page.take()
        #expect(joined.map { $0["t"] } == ["joined", "mount"])
        #expect(joined.last?["doc"]?["count"] == 0)

        session.receive(Self.increment(1), from: loop) {}
        loop.sync {}
        let patch = try #require(try page.take().first)
        #expect(patch["t"] == "patch" && patch["ack"] == 1)
        #expect(patch["ops"] == [["op": "replace", "path": "/count", "value": 1]])
    }

    @Test("Behind a slow socket changes wait and go as one patch when it drains")
    func backpressure() throws {
        let (registry, loop, session, page) = try Self.joined()
        defer { withExtendedLifetime(registry) {} }
        _ = try page.take()

        page.holdBack(1 << 20)
        for number in 1...3 { session.receive(Self.increment(Int64(number)), from: loop) {} }
        loop.sync {}
        #expect(try page.take().isEmpty, "nothing is produced while the socket is behind")
        #expect(page.drainRequested)

        page.drain()
        loop.sync {}
        let sent = try page.take()
        #expect(sent.count == 1, "the three changes coalesced into one diff")
        #expect(sent.first?["ops"] == [["op": "replace", "path": "/count", "value": 3]])
        #expect(sent.first?["ack"] == 3)
    }

    @Test("A newer connection resumes the session and the older one is closed; the end says bye")
    func resumeAndEnd() throws {
        let (registry, loop, session, first) = try Self.joined()
        defer { withExtendedLifetime(registry) {} }
        session.receive(Self.increment(1), from: loop) {}
        loop.sync {}
        let lastSeq = try #require(
            try first.take().compactMap { message -> Int64? in
                if case .int(let seq)? = message["seq"] { seq } else { nil }
            }.max())

        let second = InMemoryConnection(id: 2, on: loop)
        session.attach(second, resumeAfter: lastSeq, path: "/")
        loop.sync {}
        #expect(first.closed?.code == 4000)
        let resumed = try second.take()
        #expect(resumed.map { $0["t"] } == ["joined"])
        #expect(resumed.first?["resumed"] == true && resumed.first?["events"] == 1)

        session.end(reason: "the test is over")
        loop.sync {}
        #expect(try second.take().map { $0["t"] } == ["bye"])
        #expect(second.closed?.code == 1001)
    }
}
