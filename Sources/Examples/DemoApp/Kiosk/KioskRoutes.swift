import FootlightJSON
import FootlightServer
import Foundation

/// The kiosk's HTTP routes beside its page:
///
/// - `GET /api/lots`: every lot as JSON, read-only (for an app or a script): an array of
///   objects with `id`, `number`, `title`, `artist`, `currentBidCents`, `currentBid`
///   (formatted), `bidCount` and `isClosed`.
/// - `GET /lots/{id}/bids.csv`: the bids on a lot's current listing as CSV, for a
///   signed-in visitor (401 without a visitor cookie, 403 when its visitor is signed out,
///   404 for a lot the kiosk does not list): a header line, then one bid a line, oldest
///   first, read from the ledger a page at a time and streamed, so however many bids a
///   lot has, the server holds one page of them. Other bidders are not named: a bid is
///   "you" or "bidder 1", numbered in the order of their first bid.
public enum KioskRoutes {
    /// Bids read from the ledger at once for the CSV.
    public static let pageSize = 500

    /// The CSV's first line.
    public static let csvHeader = CSVLine.make(["bid", "placed_at", "amount", "amount_cents", "bidder"])

    /// Adds the kiosk's routes, over `services`, to `routes`.
    public static func add(to routes: inout Routes, services: KioskServices) {
        routes.get("/api/lots") { _ in try .json(lotsJSON(services.auction.lots)) }
        routes.get("/lots/{id}/bids.csv") { request in try bidsCSV(request, services: services) }
    }

    /// The lots as `/api/lots` answers them.
    public static func lotsJSON(_ lots: [Lot]) -> JSON {
        .array(
            lots.map { lot in
                [
                    "id": .string(lot.id), "number": .int(Int64(lot.number)), "title": .string(lot.title),
                    "artist": .string(lot.artist), "currentBidCents": .int(Int64(lot.currentBidCents)),
                    "currentBid": .string(MoneyFormat.string(cents: lot.currentBidCents)),
                    "bidCount": .int(Int64(lot.bidCount)), "isClosed": .bool(lot.isClosed),
                ]
            })
    }

    private static func bidsCSV(_ request: RouteRequest, services: KioskServices) throws -> RouteResponse {
        guard let visitor = request.visitor else {
            throw HTTPError.unauthorized("open the kiosk and sign in to download bids")
        }
        guard let account = services.accounts.account(signedInBy: visitor) else {
            throw HTTPError.forbidden("sign in to download bids")
        }
        let id = request.parameters["id"] ?? ""
        guard services.auction.lot(id) != nil, let pages = services.auction.bidPages(onLot: id, pageSize: pageSize)
        else { throw HTTPError.notFound("the kiosk lists no lot \"\(id)\"") }
        let language = services.languages.language(of: visitor) ?? .fallback
        return .stream(
            contentType: "text/csv; charset=utf-8",
            headers: ["content-disposition": "attachment; filename=\"\(id)-bids.csv\"", "cache-control": "no-store"]
        ) { writer in
            try await writer.write(csvHeader)
            var pages = pages
            var number = 0
            var others: [String: Int] = [:]
            while let page = try pages.next() {
                var text = ""
                for bid in page {
                    number += 1
                    let bidder: String
                    if bid.bidder == account.email {
                        bidder = "you"
                    } else {
                        let label = others[bid.bidder] ?? (others.count + 1)
                        others[bid.bidder] = label
                        bidder = "bidder \(label)"
                    }
                    text += CSVLine.make([
                        String(number), Date(timeIntervalSince1970: bid.placedAt).formatted(.iso8601),
                        MoneyFormat.string(cents: bid.amountCents, in: language), String(bid.amountCents), bidder,
                    ])
                }
                try await writer.write(text)
            }
        }
    }
}
