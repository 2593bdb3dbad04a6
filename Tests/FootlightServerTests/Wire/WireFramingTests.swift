import FootlightJSON
import Testing

@testable import FootlightServer

@Suite("Hand-framed text from the table starts messages as the tree encoder writes them")
struct WireFramingTests {
    @Test("A message's opening, and a later member, are the encoder's bytes")
    func openingAndMember() throws {
        let event = try Wire.Client.event.message([.number: 7, .stage: "counter", .name: "increment"]).serializedBytes()
        #expect(
            event
                == Wire.opening(Wire.Client.event.rawValue, .number) + Array("7".utf8) + Wire.member(.stage)
                + Array(#""counter""#.utf8) + Wire.member(.name) + Array(#""increment"}"#.utf8))
        let mount = try ServerMessage.mount(
            .init(
                seq: 1, stage: "s1", template: "lot", document: [:], placement: .root, url: nil, events: [:],
                component: nil)
        ).encoded()
        #expect(mount.starts(with: Wire.prefix(Wire.Server.mount.rawValue) + Wire.member(.seq)))
    }
}
