import Footlight
import FootlightJSON
import Testing

@testable import FootlightServer

@Suite("SessionState: joining, resuming and ending")
struct SessionStateJoinTests {
    /// A machine whose app shows one counter at the root.
    static func counterMachine(limits: SessionLimits = SessionLimits()) -> (SessionMachine, CountingStage) {
        let counter = CountingStage()
        let machine = SessionMachine(limits: limits) { machine, _ in _ = machine.present(counter.stage) }
        return (machine, counter)
    }

    @Test("A new session starts the app once and sends joined, then a mount per stage")
    func newSession() {
        var paths: [String] = []
        let machine = SessionMachine { machine, path in
            paths.append(path)
            _ = machine.present(Stage(name: "a"))
            _ = machine.present(Stage(name: "b"))
        }
        machine.attach(path: "/lots/7")
        let sent = machine.take()
        #expect(paths == ["/lots/7"])
        #expect(sent.map { $0["t"] } == ["joined", "mount", "mount"])
        #expect(sent[0]["resumed"] == false)
        #expect(sent[0]["mounts"] == 2)
        #expect(sent[0]["token"] == "token-1")
        #expect(sent[0]["max"] == .int(Int64(ServerConfiguration.defaultMaximumMessageBytes)))
        #expect(sent[1]["seq"] == 1 && sent[1]["stage"] == "a")
        #expect(sent[2]["seq"] == 2 && sent[2]["stage"] == "b")
    }

    @Test("A resume replays exactly the missed messages with their original sequence numbers")
    func resumeWithReplay() {
        let (machine, _) = Self.counterMachine()
        machine.attach()
        for number in 1...3 { machine.event(Int64(number), "increment") }
        let firstTime = machine.take().filter { $0["t"] == "patch" }
        #expect(firstTime.map { $0["seq"] } == [2, 3, 4])
        machine.perform(machine.state.detach(1))
        machine.attach(2, resumeAfter: 2)
        let sent = machine.take()
        #expect(sent[0]["t"] == "joined" && sent[0]["resumed"] == true && sent[0]["snapshot"] == nil)
        #expect(sent[0]["events"] == 3)
        #expect(Array(sent.dropFirst()) == Array(firstTime.dropFirst()), "patches 3 and 4, byte for byte")
        #expect(machine.closes.isEmpty, "the old connection was already detached")
    }

    @Test("A resume after the missed messages were dropped gets a snapshot: mounts of every stage")
    func resumeWithSnapshot() {
        var limits = SessionLimits()
        limits.replayMessages = 2
        let (machine, _) = Self.counterMachine(limits: limits)
        machine.attach()
        for number in 1...5 { machine.event(Int64(number), "increment") }
        _ = machine.take()
        #expect(machine.state.replayCount == 2)
        machine.attach(2, resumeAfter: 1)
        let sent = machine.take()
        #expect(sent.map { $0["t"] } == ["joined", "mount"])
        #expect(sent[0]["snapshot"] == true && sent[0]["mounts"] == 1)
        #expect(sent[1]["doc"] == ["count": 5])
        #expect(sent[1]["seq"] == 7, "the snapshot continues the numbering")
        #expect(machine.closes.map(\.code) == [4000], "the older connection is replaced")
        #expect(machine.state.replayCount == 1, "the history restarts at the snapshot")
    }

    @Test("A client that claims messages never sent gets a snapshot")
    func resumeAheadOfServer() {
        let (machine, _) = Self.counterMachine()
        machine.attach()
        _ = machine.take()
        machine.attach(2, resumeAfter: 99)
        #expect(machine.takeTypes() == ["joined", "mount"])
        #expect(machine.logs.contains { $0.contains("claims seq 99") })
    }

    @Test("Acknowledged messages leave the replay buffer; a resume from before them gets a snapshot")
    func acknowledgementsTrimReplay() {
        let (machine, _) = Self.counterMachine()
        machine.attach()
        for number in 1...4 { machine.event(Int64(number), "increment") }
        #expect(machine.state.replayCount == 5)
        machine.perform(machine.state.acknowledge(seq: 4))
        #expect(machine.state.replayCount == 1)
        machine.attach(2, resumeAfter: 2)
        #expect(machine.take().last?["t"] == "mount")
    }

    @Test("The replay buffer keeps to its byte bound, dropping the oldest")
    func replayByteBound() {
        var limits = SessionLimits()
        limits.replayBytes = 200
        let (machine, _) = Self.counterMachine(limits: limits)
        machine.attach()
        for number in 1...40 { machine.event(Int64(number), "increment") }
        #expect(machine.state.replayBytes <= 200)
        #expect(machine.state.replayCount >= 1)
    }

    @Test("Ending sends bye and closes 1001; attaching to an ended session refuses it with 4001")
    func endAndLateAttach() {
        let (machine, counter) = Self.counterMachine()
        machine.attach()
        _ = machine.take()
        machine.perform(machine.state.end(reason: "the server is shutting down"))
        #expect(machine.take().map { $0["t"] } == ["bye"])
        #expect(machine.closes.map(\.code) == [1001])
        #expect(counter.stage.eventNames.isEmpty, "the stage was cancelled")
        machine.attach(2, resumeAfter: 1)
        let sent = machine.take()
        #expect(sent.map { $0["code"] } == ["unknown-session"])
        #expect(machine.closes.last?.code == 4001)
    }

    @Test("A detached session sends nothing; its changes arrive as one diff on resume")
    func changesWhileDetached() {
        let (machine, counter) = Self.counterMachine()
        machine.attach()
        _ = machine.take()
        machine.perform(machine.state.detach(1))
        counter.set(10)
        counter.set(20)
        machine.endTurn()
        #expect(machine.take().isEmpty)
        machine.attach(2, resumeAfter: 1)
        let sent = machine.take()
        #expect(sent.map { $0["t"] } == ["joined", "patch"])
        #expect(sent[1]["ops"] == [["op": "replace", "path": "/count", "value": 20]])
    }
}
