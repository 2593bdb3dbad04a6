import FootlightJSON
import FootlightTesting
import Testing

@testable import FootlightServer

@Suite("ClientMirror: a message it has no case for is applied in order and recorded")
struct ClientMirrorTests {
    /// A mirror joined to a new session with the counter mounted (seq 1) and event 1 sent.
    static func joined() -> ClientMirror {
        var mirror = ClientMirror()
        _ = mirror.apply(
            Wire.Server.joined.message([.token: "t", .resumed: false, .events: 0, .mounts: 1]))
        _ = mirror.apply(
            Wire.Server.mount.message([.seq: 1, .stage: "s1", .template: "counter", .document: ["count": 0]]))
        _ = mirror.makeEvent("increment", stage: "s1", value: nil)
        return mirror
    }

    @Test("A state-bearing message of another type is sequenced, consumes its ack, and is recorded as sent")
    func otherMessage() throws {
        var mirror = Self.joined()
        let hint: JSON = ["t": "hint", "seq": 2, "stage": "s1", "message": "Bids close at noon", "ack": 1]
        #expect(mirror.apply(hint) == [])
        #expect(mirror.lastSeq == 2)
        #expect(mirror.unacknowledged.isEmpty)
        #expect(mirror.commands.last == .message(type: "hint", template: "counter", ["message": "Bids close at noon"]))
        // The next state message follows it: no gap.
        _ = mirror.apply(
            Wire.Server.patch.message([
                .seq: 3, .stage: "s1", .operations: [["op": "replace", "path": "/count", "value": 1]],
            ]))
        #expect(mirror.documents["s1"] == ["count": 1])
        // The table lacks "hint": a real server never sends it.
        #expect(mirror.violations == [#"unknown message type "hint""#])
    }

    @Test("An advisory message of another type is recorded without touching the sequence")
    func otherAdvisory() throws {
        var mirror = Self.joined()
        _ = mirror.apply(["t": "notice", "text": "maintenance at 6"])
        #expect(mirror.lastSeq == 1)
        #expect(mirror.commands.last == .message(type: "notice", template: nil, ["text": "maintenance at 6"]))
        #expect(mirror.commands.last?.description == #"notice: {"text":"maintenance at 6"}"#)
    }
}
