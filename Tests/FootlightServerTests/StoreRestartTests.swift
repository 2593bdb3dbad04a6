import FootlightJSON
import FootlightTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The kiosk's database across a process that dies without warning.
@Suite(.timeLimit(.minutes(2)))
struct StoreRestartTests {
    @Test("A kiosk killed with SIGKILL while bids pour in comes back with every bid a visitor had seen")
    func bidsSurviveSIGKILL() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("footlight-kill-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let arguments = ["--app", "auction", "--log-level", "warning", "--data-dir", data]
        var seen: [String: Int] = [:]
        do {
            let demo = try DemoProcess(arguments: arguments + ["--simulated-bidder", "--bid-interval", "0.05"])
            let visitor = try await TestClient.connect(port: demo.port)
            try await waitFor("the visitor to see 20 bids", timeout: .seconds(30)) {
                Self.bidCounts(visitor).values.reduce(0, +) >= 20
            }
            seen = Self.bidCounts(visitor)
            kill(demo.pid, SIGKILL)
            #expect(try await demo.waitForExit(timeout: .seconds(5)) == nil, "killed, not exited")
        }
        let restarted = try DemoProcess(arguments: arguments)
        let visitor = try await TestClient.connect(port: restarted.port)
        let after = Self.bidCounts(visitor)
        #expect(after.count == seen.count)
        for (lot, count) in seen {
            #expect((after[lot] ?? 0) >= count, "\(lot): \(count) bids seen before the kill, \(after[lot] ?? 0) after")
        }
    }

    /// The number of bids on each listed lot, read off its card's "3 bids" text (each
    /// lot of the listings is a component, its card, in the row of its id).
    static func bidCounts(_ visitor: TestClient) -> [String: Int] {
        var counts: [String: Int] = [:]
        for (card, placed) in visitor.observation.mirror.components where placed.host.name == "card" {
            guard let lot = placed.host.row, let text = visitor.document(of: card)?["lot"]?["bidCount"]?.stringValue
            else { continue }
            counts[lot] = Int(text.prefix { $0.isNumber || $0 == "," }.filter(\.isNumber)) ?? 0
        }
        return counts
    }
}
