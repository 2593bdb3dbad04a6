import DemoApp
import Footlight
import FootlightJSON
import Testing

extension AuctionTests {
    @Suite struct LotRowFormatterTests {
        static let catalogue = ListingsDirectorTests.catalogue

        /// A listings Director on plain subjects, with `formatter`.
        struct Listing {
            let lots = PassthroughSubject<[Lot], Never>()
            let now = PassthroughSubject<Duration, Never>()
            let segment = PassthroughSubject<String, Never>()
            let rows: Recording<[LotRow]>
            let director: ListingsDirector

            init(formatter: LotRowFormatter, order: ListingOrder) {
                director = ListingsDirector(
                    lots: lots.eraseToAnyPublisher(), now: now.eraseToAnyPublisher(),
                    segment: segment.eraseToAnyPublisher(), open: Empty().eraseToAnyPublisher(),
                    initialOrder: order, formatter: formatter)
                rows = Recording(director.rows)
            }

            func send(_ lots: [Lot], at now: Duration) {
                self.lots.send(lots)
                self.now.send(now)
            }
        }

        @Test("Two sessions' Directors sharing a formatter share their rows, each in its own order")
        func sharedRowsKeepEachOrder() throws {
            let formatter = LotRowFormatter()
            let grid = Listing(formatter: formatter, order: .grid)
            let byTitle = Listing(formatter: formatter, order: .alphabetical)
            let alsoGrid = Listing(formatter: formatter, order: .grid)
            for listing in [grid, byTitle, alsoGrid] { listing.send(Self.catalogue, at: .zero) }

            #expect(grid.rows.last?.map(\.id) == ["lot-1", "lot-2", "lot-3"])
            #expect(byTitle.rows.last?.map(\.id) == ["lot-3", "lot-2", "lot-1"])
            let gridRows = try #require(grid.rows.last)
            let titleRows = try #require(byTitle.rows.last)
            let alsoGridRows = try #require(alsoGrid.rows.last)
            #expect(alsoGridRows == gridRows)
            // Not only equal: the same JSON storage, whatever the order.
            #expect(gridRows[0].viewJSON.sharesStorage(with: alsoGridRows[0].viewJSON))
            #expect(gridRows[0].viewJSON.sharesStorage(with: titleRows[2].viewJSON))
            #expect(gridRows == Self.catalogue.map { LotRow(lot: $0, now: .zero) })
        }

        @Test("A bid makes only its lot's row again; the other rows keep their storage")
        func onlyTheChangedLotIsFormattedAgain() throws {
            let formatter = LotRowFormatter()
            let before = formatter.rows(of: Self.catalogue, at: .zero, in: .grid)
            var lots = Self.catalogue
            lots[1] = lots[1].recording(bidOf: lots[1].minimumNextBidCents, by: "ada@example.com")
            let after = formatter.rows(of: lots, at: .zero, in: .grid)
            #expect(after[1] == LotRow(lot: lots[1], now: .zero))
            #expect(after[1].bidCount == "1 bid")
            #expect(!after[1].viewJSON.sharesStorage(with: before[1].viewJSON))
            #expect(after[0].viewJSON.sharesStorage(with: before[0].viewJSON))
            #expect(after[2].viewJSON.sharesStorage(with: before[2].viewJSON))
        }

        @Test("Time moving on remakes a row only when its time left reads differently")
        func ticksRemakeRowsWhoseTextChanges() throws {
            let formatter = LotRowFormatter()
            let lots = [
                AuctionFixtures.lot(1, closesAt: .seconds(7_230)),  // "2 h 00 min" for the next 30 s
                AuctionFixtures.lot(2, closesAt: .seconds(90)),  // "1 min 30 s", then "1 min 29 s"
            ]
            let before = formatter.rows(of: lots, at: .zero, in: .grid)
            let sameSecond = formatter.rows(of: lots, at: .milliseconds(10), in: .grid)
            #expect(sameSecond == before)
            #expect(sameSecond[1].viewJSON.sharesStorage(with: before[1].viewJSON))
            let secondLater = formatter.rows(of: lots, at: .seconds(1), in: .grid)
            #expect(secondLater.map(\.timeLeft) == ["2 h 00 min", "1 min 29 s"])
            #expect(secondLater[0].viewJSON.sharesStorage(with: before[0].viewJSON))
            #expect(!secondLater[1].viewJSON.sharesStorage(with: before[1].viewJSON))
            #expect(secondLater == lots.map { LotRow(lot: $0, now: .seconds(1)) })
        }

        @Test(
            "A lot page's details come from the shared ones: the same as made alone, for each account, time and language"
        )
        func sharedDetailsMatchDetailsMadeAlone() {
            let formatter = LotRowFormatter()
            let open = AuctionFixtures.lot(
                1, bids: [12_000, 15_000], bidder: "ada@example.com", closesAt: .seconds(90))
            let lots = [
                open, AuctionFixtures.lot(2, closesAt: .seconds(30)),
                AuctionFixtures.lot(3, bids: [20_000], bidder: "ada@example.com", closed: true),
                AuctionFixtures.lot(4, closed: true),
            ]
            // Each case twice in a row, so the second comes from the shared details.
            for now in [Duration.zero, .milliseconds(400), .seconds(1), .seconds(31), .seconds(200)] {
                for language in KioskLanguage.allCases {
                    for lot in lots {
                        for account in [nil, "ada@example.com", "grace@example.com"] {
                            for _ in 0..<2 {
                                #expect(
                                    formatter.details(of: lot, at: now, account: account, in: language)
                                        == LotDetails(lot: lot, now: now, account: account, language: language),
                                    "\(lot.id) at \(now) for \(account ?? "no one") in \(language)")
                            }
                        }
                    }
                }
            }
            // A bid changes the lot: its details are made again.
            let bidOn = open.recording(bidOf: 20_000, by: "grace@example.com")
            #expect(
                formatter.details(of: bidOn, at: .seconds(1), account: "grace@example.com", in: .german)
                    == LotDetails(lot: bidOn, now: .seconds(1), account: "grace@example.com", language: .german))
        }
    }
}
