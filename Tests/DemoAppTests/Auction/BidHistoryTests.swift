import DemoApp
import FootlightJSON
import Testing

@Suite("The lot page's bid history: each bid as it comes, the ledger when bids were missed")
struct BidHistoryTests {
    /// A ledger that counts its reads.
    final class Ledger {
        var amounts: [String: [Int]] = [:]
        var reads = 0
        func read(_ lotID: String) -> [Int] {
            reads += 1
            return amounts[lotID] ?? []
        }
    }

    @Test("Opened: read from the ledger; a bid seen arriving is added; the same count changes nothing")
    func follows() {
        let ledger = Ledger()
        ledger.amounts["lot-1"] = [10_000, 11_000]
        var lot = AuctionFixtures.lot(1, bids: [10_000, 11_000])
        var history = BidHistory.empty.following(lot, pastBids: ledger.read)
        #expect(history.amountsCents == [10_000, 11_000] && history.count == 2 && ledger.reads == 1)
        #expect(history.following(lot, pastBids: ledger.read) == history)
        lot = lot.recording(bidOf: 12_000, by: "paddle-2")
        history = history.following(lot, pastBids: ledger.read)
        #expect(history.amountsCents == [10_000, 11_000, 12_000] && ledger.reads == 1, "no read for a bid seen")
        #expect(history.summary == "3 bids, from $100.00 to $120.00.")
        #expect(
            history.viewJSON == [
                "amounts": [10_000, 11_000, 12_000], "low": "$100.00", "high": "$120.00",
                "summary": "3 bids, from $100.00 to $120.00.",
            ])
    }

    @Test("Bids that came faster than the lot's changes are read again; a relisted lot starts over; another lot too")
    func missedAndRelisted() {
        let ledger = Ledger()
        ledger.amounts["lot-1"] = [10_000, 11_000, 12_000]
        let history = BidHistory(lotID: "lot-1", count: 1, amountsCents: [10_000])
        let jumped = history.following(AuctionFixtures.lot(1, bids: [10_000, 11_000, 12_000]), pastBids: ledger.read)
        #expect(jumped.amountsCents == [10_000, 11_000, 12_000] && ledger.reads == 1)
        let relisted = jumped.following(
            AuctionFixtures.lot(1).relisted(closingAt: .seconds(7_200)), pastBids: ledger.read)
        #expect(relisted.amountsCents.isEmpty && relisted.summary == "No bids yet.")
        #expect(jumped.following(nil, pastBids: ledger.read) == BidHistory(lotID: nil, count: 0, amountsCents: []))
        ledger.amounts["lot-2"] = [50_000]
        let other = jumped.following(AuctionFixtures.lot(2, bids: [50_000]), pastBids: ledger.read)
        #expect(other.lotID == "lot-2" && other.amountsCents == [50_000] && other.summary == "1 bid: $500.00.")
    }

    @Test("The chart shows the last 50 bids, and says so")
    func bounded() {
        let amounts = (1...120).map { 10_000 + $0 * 100 }
        let history = BidHistory(lotID: "lot-1", count: 120, amountsCents: amounts)
        #expect(history.amountsCents == Array(amounts.suffix(BidHistory.shown)))
        #expect(history.summary == "120 bids, from $171.00 to $220.00 (the last 50 shown).")
        let next = history.following(
            AuctionFixtures.lot(1, bids: amounts + [22_100]),
            pastBids: { _ in
                Issue.record("no read")
                return []
            })
        #expect(next.count == 121 && next.amountsCents.count == 50 && next.amountsCents.last == 22_100)
    }
}
