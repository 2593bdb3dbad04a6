import DemoApp
import Footlight
import FootlightJSON
import Testing

extension AuctionTests {
    @Suite struct ListingsDirectorTests {
        let lots = PassthroughSubject<[Lot], Never>()
        let now = PassthroughSubject<Duration, Never>()
        let segment = PassthroughSubject<String, Never>()
        let open = PassthroughSubject<String, Never>()

        func makeDirector(initialOrder: ListingOrder = .grid) -> ListingsDirector {
            ListingsDirector(
                lots: lots.eraseToAnyPublisher(), now: now.eraseToAnyPublisher(),
                segment: segment.eraseToAnyPublisher(),
                open: open.eraseToAnyPublisher(), initialOrder: initialOrder)
        }

        static let catalogue = [
            AuctionFixtures.lot(1, title: "Harbour at Dusk", artist: "Inès Moreau", bids: [20_000, 30_000]),
            AuctionFixtures.lot(2, title: "Blue Study", artist: "Tomasz Wróbel", closesAt: .seconds(90)),
            AuctionFixtures.lot(3, title: "Another Portrait", artist: "Helena Voss", startingCents: 50_000),
        ]

        @Test(
            "Starts with the six segments in order, Grid selected, the grid layout, and rows once lots and time arrive")
        func startsInGrid() throws {
            let director = makeDirector()
            let segments = Recording(director.segments)
            let selected = Recording(director.selectedSegment)
            let layout = Recording(director.layout)
            let rows = Recording(director.rows)
            #expect(segments.values.count == 1)
            #expect(
                segments.last?.map(\.title) == [
                    "Grid", "Least bids", "Most bids", "Highest bid", "Lowest bid", "Alphabetical",
                ])
            #expect(
                segments.last?.map(\.id) == [
                    "grid", "least-bids", "most-bids", "highest-bid", "lowest-bid", "alphabetical",
                ])
            #expect(segments.last?.map(\.selected) == [true, false, false, false, false, false])
            #expect(selected.values == ["grid"])
            #expect(layout.values == ["grid"])
            #expect(rows.values.isEmpty)
            lots.send(Self.catalogue)
            #expect(rows.values.isEmpty)
            now.send(.zero)
            #expect(rows.values.map { $0.map(\.id) } == [["lot-1", "lot-2", "lot-3"]])
            let first = try #require(rows.last?.first)
            #expect(first.number == "Lot 1")
            #expect(first.title == "Harbour at Dusk")
            #expect(first.artist == "Inès Moreau")
            #expect(first.currentBid == "$300.00")
            #expect(first.bidLabel == "Current bid")
            #expect(first.bidCount == "2 bids")
            #expect(first.timeLeft == "1 h 00 min")
            #expect(!first.closed)
            #expect(first.image == ArtworkImage(lot: Self.catalogue[0]))
            #expect(first.image.initials == "HD")
            #expect(first.image.alt == "Harbour at Dusk by Inès Moreau (landscape)")
            #expect(rows.last?[1].bidLabel == "Starting bid")
            #expect(rows.last?[1].bidCount == "No bids")
            #expect(rows.last?[1].currentBid == "$100.00")
        }

        @Test(
            "Picking segments by id or label changes the order and the layout; unknown names and repeats emit nothing")
        func pickingSegments() {
            let director = makeDirector()
            let selected = Recording(director.selectedSegment)
            let layout = Recording(director.layout)
            let rows = Recording(director.rows)
            let segments = Recording(director.segments)
            lots.send(Self.catalogue)
            now.send(.zero)
            segment.send("most-bids")
            segment.send("Least bids")
            segment.send("newest")
            segment.send("least-bids")
            segment.send("highest-bid")
            segment.send("lowest-bid")
            segment.send("alphabetical")
            segment.send("Grid")
            #expect(
                selected.values == [
                    "grid", "most-bids", "least-bids", "highest-bid", "lowest-bid", "alphabetical", "grid",
                ])
            #expect(layout.values == ["grid", "table", "grid"])
            // Most bids (2, 0, 0, ties in catalogue order) lists them as Grid does: no new rows.
            #expect(
                rows.values.map { $0.map(\.id) } == [
                    ["lot-1", "lot-2", "lot-3"],  // grid, most bids
                    ["lot-2", "lot-3", "lot-1"],  // least bids
                    ["lot-3", "lot-1", "lot-2"],  // highest bid: $500, $300, $100
                    ["lot-2", "lot-1", "lot-3"],  // lowest bid
                    ["lot-3", "lot-2", "lot-1"],  // alphabetical: Another, Blue, Harbour
                    ["lot-1", "lot-2", "lot-3"],  // grid
                ])
            #expect(segments.values.count == 7)
            #expect(segments.last?.filter(\.selected).map(\.id) == ["grid"])
        }

        @Test("Rows follow the live lots and the ticking clock; a tick that changes no text emits nothing")
        func liveRows() {
            let director = makeDirector(initialOrder: .mostBids)
            let rows = Recording(director.rows)
            lots.send(Self.catalogue)
            now.send(.zero)
            now.send(.milliseconds(500))  // "1 h 00 min" and "1 min 30 s" still
            now.send(.seconds(1))
            var updated = Self.catalogue
            updated[2] = updated[2].recording(bidOf: 50_000, by: "ada").recording(bidOf: 60_000, by: "bo")
                .recording(bidOf: 70_000, by: "ada")
            lots.send(updated)
            now.send(.seconds(90))
            #expect(
                rows.values.map { $0.map(\.id) } == [
                    ["lot-1", "lot-2", "lot-3"], ["lot-1", "lot-2", "lot-3"], ["lot-3", "lot-1", "lot-2"],
                    ["lot-3", "lot-1", "lot-2"],
                ])
            #expect(
                rows.values.map { $0.map(\.timeLeft) } == [
                    ["1 h 00 min", "1 min 30 s", "1 h 00 min"], ["59 min 59 s", "1 min 29 s", "59 min 59 s"],
                    ["59 min 59 s", "59 min 59 s", "1 min 29 s"], ["58 min 30 s", "58 min 30 s", "Closed"],
                ])
            #expect(rows.last?.map(\.closed) == [false, false, true])
            #expect(rows.last?.first?.currentBid == "$700.00")
            #expect(rows.last?.first?.bidCount == "3 bids")
        }

        @Test("Tapping a listed lot is a scene output with its id; unknown ids and taps before any lots are dropped")
        func selectingALot() {
            let director = makeDirector()
            let selectedLot = Recording(director.selectedLot)
            open.send("lot-2")
            lots.send(Self.catalogue)
            open.send("lot-2")
            open.send("lot-9")
            open.send("lot-3")
            #expect(selectedLot.values == ["lot-2", "lot-3"])
        }

        @Test("Rows and segments are view records with stable ids")
        func viewJSON() throws {
            let row = LotRow(lot: Self.catalogue[0], now: .seconds(3_555))
            let json = row.viewJSON
            #expect(json["id"] == "lot-1")
            #expect(json["number"] == "Lot 1")
            #expect(json["currentBid"] == "$300.00")
            #expect(json["bidCount"] == "2 bids")
            #expect(json["timeLeft"] == "45 s")
            #expect(json["closed"] == false)
            #expect(json["image"]?["kind"] == "landscape")
            #expect(json["image"]?["hue"] == "10")
            #expect(json["image"]?["initials"] == "HD")
            #expect(json["image"]?["style"] == "--art-hue: 10")
            #expect(
                SegmentItem(order: .mostBids, selected: true).viewJSON == [
                    "id": "most-bids", "title": "Most bids", "selected": true, "pressed": "true",
                ])
            #expect(SegmentItem(order: .grid, selected: false).viewJSON["pressed"] == "false")
        }

        @Test("Row changes: the rows once, then a bid is one update of its row and a new order the fewest moves")
        func rowChanges() throws {
            let director = makeDirector()
            let changes = Recording(director.rowChanges)
            lots.send(Self.catalogue)
            now.send(.zero)
            let first = try #require(changes.last)
            #expect(first.count == 1)
            guard case .reset(let rows) = first.first else { throw RowChangeMismatch(changes: first) }
            #expect(rows.map(\.id) == ["lot-1", "lot-2", "lot-3"])
            var bidOn = Self.catalogue
            bidOn[2] = AuctionFixtures.lot(
                3, title: "Another Portrait", artist: "Helena Voss", startingCents: 50_000, bids: [60_000])
            lots.send(bidOn)
            #expect(changes.last == [.update(LotRow(lot: bidOn[2], now: .zero))])
            segment.send("most-bids")  // lot-1 (2 bids), lot-3 (1 bid), lot-2 (none)
            #expect(changes.last == [.move(id: "lot-2", to: 2)], "one move")
            now.send(.zero)
            #expect(changes.values.count == 3, "the same rows again change nothing")
        }

        struct RowChangeMismatch: Error {
            let changes: [RowChange<LotRow>]
        }
    }
}
