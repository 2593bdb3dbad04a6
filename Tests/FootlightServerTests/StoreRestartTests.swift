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
                Self.bidCounts(visitor.document(of: "listings")).values.reduce(0, +) >= 20
            }
            seen = Self.bidCounts(visitor.document(of: "listings"))
            kill(demo.pid, SIGKILL)
            #expect(try await demo.waitForExit(timeout: .seconds(5)) == nil, "killed, not exited")
        }
        let restarted = try DemoProcess(arguments: arguments)
        let visitor = try await TestClient.connect(port: restarted.port)
        let after = Self.bidCounts(visitor.document(of: "listings"))
        #expect(after.count == seen.count)
        for (lot, count) in seen {
            #expect((after[lot] ?? 0) >= count, "\(lot): \(count) bids seen before the kill, \(after[lot] ?? 0) after")
        }
    }

    /// The number of bids on each listed lot, read off the rows' "3 bids" texts.
    static func bidCounts(_ listings: JSON?) -> [String: Int] {
        guard case .array(let rows)? = listings?["rows"] else { return [:] }
        var counts: [String: Int] = [:]
        for row in rows {
            guard let id = row["id"]?.stringValue, let text = row["bidCount"]?.stringValue else { continue }
            counts[id] = Int(text.prefix { $0.isNumber || $0 == "," }.filter(\.isNumber)) ?? 0
        }
        return counts
    }
}
