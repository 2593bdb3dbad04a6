import Footlight
import FootlightJSON
import FootlightTesting
import Testing

@testable import FootlightServer

/// A row of the keyed collection under test.
struct KeyedRow: ViewValue, Identifiable, Equatable {
    let id: String
    var bid: Int

    var viewJSON: JSON { ["id": .string(id), "bid": .int(Int64(bid))] }
}

@Suite("SessionState: keyed collections")
struct SessionStateKeyedTests {
    /// A joined machine showing stage "list", whose slot "rows" holds `count` rows; the
    /// mirror holds what the page would.
    struct Fixture {
        var machine: SessionMachine
        let stage = Stage(name: "list")
        let changes = PassthroughSubject<[RowChange<KeyedRow>], Never>()
        var mirror = ClientMirror()

        init(rows count: Int, limits: SessionLimits = SessionLimits()) {
            let stage = self.stage
            stage.bind(changes, to: "rows")
            changes.send([.reset((0..<count).map { KeyedRow(id: "r\($0)", bid: 0) })])
            machine = SessionMachine(limits: limits) { machine, _ in _ = machine.present(stage) }
            machine.attach()
            deliver()
        }

        /// Hands what the machine sent to the mirror (its acks are not needed here).
        mutating func deliver() {
            for message in machine.take() { _ = mirror.apply(message) }
        }

        mutating func change(_ batch: RowChange<KeyedRow>...) {
            changes.send(batch)
            machine.endTurn()
        }

        var replicaMatches: Bool { mirror.documents["list"] == stage.document && mirror.violations.isEmpty }
    }

    @Test("One field of row 5,000 of 10,000 reaches the page as one patch holding one replace")
    func oneReplace() throws {
        var fixture = Fixture(rows: 10_000)
        fixture.change(.update(KeyedRow(id: "r4999", bid: 120)))
        let sent = fixture.machine.take()
        #expect(sent.count == 1)
        #expect(sent.first?["t"] == "patch")
        #expect(sent.first?["ops"] == [["op": "replace", "path": "/rows/4999", "value": ["id": "r4999", "bid": 120]]])
    }

    @Test("Row changes and value slots of one turn share one patch; nothing changed sends nothing")
    func sharedPatch() {
        var fixture = Fixture(rows: 3)
        let title = CurrentValueSubject<String, Never>("a")
        fixture.stage.bind(title, to: "title")
        fixture.machine.endTurn()
        fixture.deliver()
        title.send("b")
        fixture.change(.remove(id: "r0"), .insert(KeyedRow(id: "new", bid: 1), at: 0))
        let sent = fixture.machine.take()
        #expect(sent.map { $0["t"] } == ["patch"])
        #expect(sent.first?["ops"]?.arrayValue?.map { $0["op"] } == ["replace", "remove", "add"])
        for message in sent { _ = fixture.mirror.apply(message) }
        #expect(fixture.replicaMatches)
        fixture.machine.endTurn()
        #expect(fixture.machine.take().isEmpty)
    }

    @Test("A resume in the middle of row changes replays them; the replica equals the server's document")
    func resumeWithReplay() {
        var fixture = Fixture(rows: 50)
        for index in 0..<10 { fixture.change(.update(KeyedRow(id: "r\(index)", bid: index))) }
        fixture.deliver()
        fixture.change(.move(id: "r3", to: 40), .remove(id: "r7"))
        fixture.change(.insert(KeyedRow(id: "x", bid: 9), at: 5))
        _ = fixture.machine.take()  // lost with the socket
        fixture.machine.perform(fixture.machine.state.detach(1))
        fixture.change(.update(KeyedRow(id: "r40", bid: 1)), .move(id: "x", to: 0))  // while away
        fixture.machine.attach(2, resumeAfter: fixture.mirror.lastSeq)
        fixture.deliver()
        #expect(fixture.mirror.resumes == 1 && fixture.mirror.snapshots == 0)
        #expect(fixture.replicaMatches)
        #expect(fixture.mirror.documents["list"]?["rows"]?.arrayValue?.first?["id"] == "x")
    }

    @Test("A resume after the replay dropped row changes gets a snapshot; unsent changes are not repeated after it")
    func resumeWithSnapshot() {
        var limits = SessionLimits()
        limits.replayMessages = 2
        var fixture = Fixture(rows: 20, limits: limits)
        let seen = fixture.mirror.lastSeq
        for index in 0..<8 { fixture.change(.move(id: "r\(index)", to: 19)) }
        _ = fixture.machine.take()
        fixture.machine.perform(fixture.machine.state.detach(1))
        fixture.changes.send([.remove(id: "r19"), .update(KeyedRow(id: "r0", bid: 5))])  // pending at the join
        fixture.machine.attach(2, resumeAfter: seen)
        let sent = fixture.machine.take()
        #expect(sent.map { $0["t"] } == ["joined", "mount"], "the mount holds the pending changes")
        for message in sent { _ = fixture.mirror.apply(message) }
        #expect(fixture.mirror.snapshots == 1)
        #expect(fixture.replicaMatches)
        fixture.machine.endTurn()
        #expect(fixture.machine.take().isEmpty)
    }

    @Test("Behind a slow socket, row changes wait; past the bound the slot goes whole, once, after the drain")
    func backpressure() {
        var fixture = Fixture(rows: 300)
        fixture.changes.send([.update(KeyedRow(id: "r1", bid: 1))])
        fixture.machine.endTurn(unsentBytes: 1 << 30)
        #expect(fixture.machine.awaitingDrain)
        for round in 1...3 {
            for index in 0..<300 { fixture.changes.send([.update(KeyedRow(id: "r\(index)", bid: round))]) }
            fixture.machine.endTurn(unsentBytes: 1 << 30)
        }
        #expect(fixture.machine.take().isEmpty)
        fixture.machine.perform(fixture.machine.state.drained())
        fixture.machine.endTurn()
        let sent = fixture.machine.take()
        #expect(sent.count == 1)
        #expect(sent.first?["ops"]?.arrayValue?.map { $0["op"] } == ["add"])
        for message in sent { _ = fixture.mirror.apply(message) }
        #expect(fixture.replicaMatches)
    }

    @Test("A stage mounted in the turn its rows changed: the mount carries them, no patch repeats them")
    func mountedWithChanges() {
        let fixture = Fixture(rows: 0)
        let other = Stage(name: "other")
        let changes = PassthroughSubject<RowChange<KeyedRow>, Never>()
        other.bind(changes, to: "items")
        _ = fixture.machine.present(other, .push)
        changes.send(.insert(KeyedRow(id: "a", bid: 1)))
        changes.send(.insert(KeyedRow(id: "b", bid: 2), at: 0))
        fixture.machine.endTurn()
        let sent = fixture.machine.take()
        #expect(sent.map { $0["t"] } == ["mount"])
        #expect(sent.first?["doc"] == ["items": [["id": "b", "bid": 2], ["id": "a", "bid": 1]]])
    }
}
