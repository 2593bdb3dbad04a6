import DemoApp
import Footlight
import FootlightJSON
import FootlightServer
import FootlightTesting
import Testing

/// The auction kiosk over real sockets: a bid placed through one session's bid form
/// reaches every other session's listings (the lot's card) and open lot in one patch
/// each.
@Suite(.timeLimit(.minutes(1)))
struct KioskBroadcastTests {
    @Test("A bid from one session reaches 30 others, one patch each, listings and details alike")
    func bidReachesEveryone() async throws {
        let clock = ManualAuctionClock()  // still: ticks change nothing, so every patch is the bid's
        let auction = AuctionService(lots: AuctionCatalogue.lots(), clock: clock)
        let services = KioskServices(auction: auction, latency: .milliseconds(1))
        let server = try TestServer.startApp(KioskApp.entry(services))
        defer { server.shutdown() }

        var listingWatchers: [TestClient] = []
        var lotWatchers: [TestClient] = []
        for index in 0..<30 {
            if index.isMultiple(of: 2) {
                listingWatchers.append(try await TestClient.connect(port: server.port))
            } else {
                lotWatchers.append(try await TestClient.connect(port: server.port, path: "/lots/lot-1"))
            }
        }
        for watcher in lotWatchers {
            #expect(watcher.observation.mirror.stages.map(\.template) == ["listings", "lot"])
        }

        // The bidder signs in through the modal, opens lot 1 and bids its minimum.
        let bidder = try await TestClient.connect(port: server.port)
        // One subscription to the auction per session, whether or not a lot is open too.
        #expect(auction.subscriberCount == 31)
        try await bidder.send("signIn", in: "listings")
        try await bidder.wait("the sign-in modal") { $0.mirror.stages.last?.template == "signin" }
        let signin = try #require(bidder.observation.mirror.stages.last?.id)
        try await bidder.send("email", in: signin, value: "ada@example.com")
        try await bidder.send("password", in: signin, value: "lovelace1843")
        try await bidder.send("submit", in: signin)
        try await bidder.waitUntil("/accountName", in: "listings", equals: "Ada Lovelace")
        try await bidder.wait("the modal to close") { $0.mirror.stages.count == 1 }
        try await bidder.send("open", in: "listings", value: ["id": "lot-1"])
        try await bidder.wait("the lot") { $0.mirror.stages.last?.template == "lot" }
        let lot = try #require(bidder.observation.mirror.stages.last?.id)
        let minimum = try #require(auction.lot("lot-1")).minimumNextBidCents
        let shown = MoneyFormat.string(cents: minimum)
        for watcher in listingWatchers + lotWatchers { try await watcher.waitUntilAcknowledged() }
        let patchesBefore = (listingWatchers + lotWatchers).map { $0.observation.mirror.counts["patch", default: 0] }

        try await bidder.send("amount", in: lot, value: .string(MoneyFormat.string(cents: minimum)))
        try await bidder.send("submit", in: lot)
        try await bidder.waitUntil(
            "/message/text", in: lot, equals: .string("Your bid of \(shown) is the highest bid."))
        #expect(auction.bids(onLot: "lot-1").map(\.bidder) == ["ada@example.com"])

        for watcher in listingWatchers {
            // The first bid on a lot is its starting price: the count shows the change.
            let card = try #require(watcher.card("lot-1"))
            try await watcher.waitUntil("/lot/bidCount", in: card, equals: "1 bid")
            #expect(watcher.value(at: "/lot/currentBid", in: card) == .string(shown))
        }
        for watcher in lotWatchers {
            let stage = try #require(watcher.observation.mirror.stages.last?.id)
            try await watcher.waitUntil("/lot/bidCount", in: stage, equals: "1 bid")
            try await watcher.waitUntil("/lot/bidCount", in: try #require(watcher.card("lot-1")), equals: "1 bid")
            #expect(watcher.value(at: "/lot/currentBid", in: stage) == .string(shown))
        }
        for (watcher, before) in zip(listingWatchers + lotWatchers, patchesBefore) {
            let stages = watcher.observation.mirror.stages.count
            // One patch per stage showing the lot: the lot's card in the listings (the grid
            // keeps its order), and the lot when open.
            #expect(watcher.observation.mirror.counts["patch", default: 0] - before == stages)
            #expect(watcher.observation.mirror.violations.isEmpty)
            #expect(watcher.observation.mirror.errors.isEmpty)
        }
        for client in [bidder] + listingWatchers + lotWatchers { client.close() }
    }
}

extension TestClient {
    /// The instance id of the listings' card of lot `lotID` (a `lot-card` component).
    func card(_ lotID: String) -> String? {
        observation.mirror.components.first { $0.value.host == ComponentHost(name: "card", row: lotID) }?.key
    }
}
