import DemoApp
import Footlight
import FootlightJSON
import FootlightTesting
import Testing

// VisitorCookies: to name a visitor exactly as the server does.
@testable import FootlightServer

/// The kiosk's HTTP routes over real sockets: the lots as JSON, and a lot's bids as CSV
/// for a signed-in visitor only.
@Suite(.timeLimit(.minutes(1)))
struct KioskRoutesTests {
    private static let key = [UInt8](repeating: 7, count: 32)

    private func start() throws -> (Server, AuctionService, AccountDirectory) {
        let auction = AuctionService(lots: AuctionCatalogue.lots(), clock: ManualAuctionClock())
        let accounts = AccountDirectory(cost: .minimal)
        let services = KioskServices(auction: auction, accounts: accounts, latency: .milliseconds(1))
        let server = try TestServer.startApp(KioskApp.entry(services)) {
            KioskRoutes.add(to: &$0.routes, services: services)
            $0.resumeTokenKey = Self.key
        }
        return (server, auction, accounts)
    }

    /// A `Cookie` header naming a new visitor, and the visitor.
    private func newVisitor() throws -> (cookie: (String, String), visitor: VisitorID) {
        let cookies = try VisitorCookies(key: Self.key, secure: false)
        let pair = String(cookies.newCookie().prefix { $0 != ";" })
        return (("Cookie", pair), try #require(cookies.visitor(in: CookieHeader.values(pair))))
    }

    @Test("GET /api/lots: every lot, an object with its id, written by the JSON engine")
    func lots() async throws {
        let (server, auction, _) = try start()
        defer { server.shutdown() }
        let response = try await HTTPTestClient.send(port: server.port, "GET", "/api/lots")
        #expect(response.status == 200 && response.headers["content-type"] == "application/json")
        let lots = try #require(try JSON.parse(response.body).arrayValue)
        #expect(lots.compactMap { $0["id"]?.stringValue } == auction.lots.map(\.id))
        #expect(lots.first?["title"]?.stringValue == auction.lots.first?.title)
        // A lot's page is still the page.
        let page = try await HTTPTestClient.send(port: server.port, "GET", "/lots/lot-1")
        #expect(page.status == 200 && page.headers["content-type"]?.hasPrefix("text/html") == true)
    }

    @Test("GET /lots/{id}/bids.csv: refused signed out, 404 for an unknown lot, and every bid, paged, for Ada")
    func bidsCSV() async throws {
        let (server, auction, accounts) = try start()
        defer { server.shutdown() }
        let lot = try #require(auction.lots.first)
        let count = 2 * KioskRoutes.pageSize + 7
        for index in 0..<count {
            let amount = try #require(auction.lot(lot.id)).minimumNextBidCents
            let bidder = index % 2 == 0 ? "ada@example.com" : "grace@example.com"
            _ = try auction.placeBid(lotID: lot.id, amountCents: amount, bidder: bidder).get()
        }
        let path = "/lots/\(lot.id)/bids.csv"
        #expect(try await HTTPTestClient.send(port: server.port, "GET", path).status == 401)
        let (stranger, _) = try newVisitor()
        #expect(try await HTTPTestClient.send(port: server.port, "GET", path, headers: [stranger]).status == 403)
        let (cookie, visitor) = try newVisitor()
        accounts.remember(try #require(AccountDirectory.demoAccounts.first?.0), signedInBy: visitor)
        let unknown = try await HTTPTestClient.send(port: server.port, "GET", "/lots/lot-0/bids.csv", headers: [cookie])
        #expect(unknown.status == 404)

        let csv = try await HTTPTestClient.send(port: server.port, "GET", path, headers: [cookie])
        #expect(csv.status == 200 && csv.headers["content-type"] == "text/csv; charset=utf-8")
        #expect(csv.headers["transfer-encoding"] == "chunked" && csv.isComplete)
        let lines = csv.text.components(separatedBy: "\r\n")
        #expect(lines.count == count + 2 && lines.last == "", "a header line, one bid a line, CRLF after each")
        #expect(lines.first == "bid,placed_at,amount,amount_cents,bidder")
        let bids = auction.bids(onLot: lot.id)
        let money = MoneyFormat.string(cents: bids[0].amountCents)  // "$1,200.00": quoted
        #expect(lines[1].hasSuffix(",\"\(money)\",\(bids[0].amountCents),you"))
        #expect(lines[1].hasPrefix("1,"))
        #expect(lines[2].hasPrefix("2,") && lines[2].hasSuffix(",bidder 1"))
        let last = bids[count - 1]
        #expect(lines[count].hasPrefix("\(count),") && lines[count].contains(",\(last.amountCents),"))
    }

    @Test("A CSV field with a comma, a quote or a line break is quoted, its quotes doubled")
    func csvQuoting() {
        #expect(
            CSVLine.make(["1", "$1,200.00", "say \"hi\"", "two\nlines", "plain"])
                == "1,\"$1,200.00\",\"say \"\"hi\"\"\",\"two\nlines\",plain\r\n")
    }
}
