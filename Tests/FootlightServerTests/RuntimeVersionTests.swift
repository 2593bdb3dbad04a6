import FootlightJSON
import Foundation
import Testing

@testable import FootlightServer

/// A page never runs a runtime of another protocol version than its server: `joined` says the
/// server's, and the runtime the server ships speaks the same.
struct RuntimeVersionTests {
    @Test("joined carries the server's protocol version as v")
    func joinedNamesTheVersion() {
        let joined = ServerMessage.joined(
            token: "t", resumed: false, snapshot: false, events: 0, mounts: 1, maximumMessageBytes: 65536)
        guard case .object(let members) = joined.json else {
            Issue.record("joined is not an object: \(joined.json)")
            return
        }
        #expect(members["v"] == .int(Int64(ClientMessage.version)))
    }

    @Test("The runtime shipped with the server speaks the server's protocol version")
    func shippedRuntimeVersion() throws {
        let constants = try String(contentsOfFile: try StaticAssets.runtimeFolder() + "/constants.js", encoding: .utf8)
        let version = try #require(constants.firstMatch(of: /\bVERSION: (\d+),/))
        #expect(Int(version.1) == ClientMessage.version)
        #expect(constants.contains("SUBPROTOCOL: 'footlight.v\(ClientMessage.version)'"))
    }
}
