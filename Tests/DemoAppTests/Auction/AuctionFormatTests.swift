import DemoApp
import Footlight
import Testing

extension AuctionTests {
    @Suite struct MoneyFormatTests {
        @Test(
            "Cents as dollars with thousands separators and two decimals",
            arguments: [
                (0, "$0.00"), (5, "$0.05"), (99, "$0.99"), (100, "$1.00"), (123_456, "$1,234.56"),
                (100_000, "$1,000.00"),
                (99_999_999, "$999,999.99"), (100_000_000, "$1,000,000.00"), (-500, "-$5.00"),
            ])
        func formats(cents: Int, text: String) {
            #expect(MoneyFormat.string(cents: cents) == text)
        }

        @Test(
            "Reads dollars with an optional sign, grouped thousands and up to two decimals",
            arguments: [
                ("1250", 125_000), ("$1,250.00", 125_000), ("  1,250.5 ", 125_050), ("1250.", 125_000), ("0.99", 99),
                ("$ 12", 1_200), ("007", 700), ("1,000,000", 100_000_000), ("10,000,000.00", 1_000_000_000),
            ])
        func parses(text: String, cents: Int) throws {
            #expect(try MoneyFormat.parse(text) == cents)
        }

        @Test(
            "Refuses what is not an amount, with a reason",
            arguments: [
                ("", MoneyParseError.notAnAmount), ("   ", .notAnAmount), ("abc", .notAnAmount),
                ("1,2345", .notAnAmount), ("1234,567", .notAnAmount), (",123", .notAnAmount), ("-5", .notAnAmount),
                ("1e5", .notAnAmount), (".5", .notAnAmount), ("1.2.3", .notAnAmount),
                ("\u{0661}\u{0662}", .notAnAmount),
                ("$$5", .notAnAmount), ("1.234", .tooManyDecimals), ("10000000.01", .tooLarge),
                ("99999999999999999999", .tooLarge),
            ])
        func refuses(text: String, error: MoneyParseError) {
            #expect(throws: error) { try MoneyFormat.parse(text) }
        }

        @Test("The reasons read as messages for the user")
        func messages() {
            #expect(MoneyParseError.notAnAmount.description == "Enter an amount in dollars, like 1,250 or 1,250.00.")
            #expect(MoneyParseError.tooManyDecimals.description == "Use at most two decimal places (cents).")
            #expect(MoneyParseError.tooLarge.description == "Enter at most $10,000,000.00.")
            #expect(MoneyParseError.tooLarge.message(in: .german) == "Höchstens 10.000.000,00\u{A0}$.")
        }

        @Test(
            "In German: points group thousands, a comma leads the cents, the sign follows",
            arguments: [(0, "0,00\u{A0}$"), (123_456, "1.234,56\u{A0}$"), (100_000_000, "1.000.000,00\u{A0}$")])
        func formatsGerman(cents: Int, text: String) {
            #expect(MoneyFormat.string(cents: cents, in: .german) == text)
        }

        @Test(
            "In German: reads what German writes, and English forms that cannot mean anything else",
            arguments: [
                ("1250", Optional(125_000)), ("1.250", 125_000), ("1.250,5", 125_050), ("1.250,50 $", 125_050),
                ("$ 1.250,50", 125_050), ("12,5", 1_250), ("1,250.00", nil), ("1,234", nil), ("1.2345", nil),
                ("1250.50", 125_050), ("12.5", 1_250), ("1.250.50", nil),
            ])
        func parsesGerman(text: String, cents: Int?) {
            #expect((try? MoneyFormat.parse(text, in: .german)) == cents, "\(text)")
        }

        @Test(
            "A lone separator with one or two digits after it is the decimal point, in either language",
            arguments: [
                ("12,50", Optional(1_250)), ("1250,5", 125_050), ("1,250", 125_000), ("1,2345", nil), ("12,5,0", nil),
            ])
        func parsesTheOtherDecimalPoint(text: String, cents: Int?) {
            #expect((try? MoneyFormat.parse(text)) == cents, "\(text)")
        }
    }

    @Suite struct TimeLeftFormatTests {
        /// Remaining milliseconds and the text shown.
        static let cases: [(Int, String)] = [
            (7_500_000, "2 h 05 min"), (45_000, "45 s"), (0, "Closed"), (-3_000, "Closed"), (-1, "Closed"),
            (200, "1 s"), (59_500, "1 min 00 s"), (61_000, "1 min 01 s"), (600_000, "10 min 00 s"),
            (3_600_000, "1 h 00 min"), (7_499_500, "2 h 05 min"), (100_800_000, "1 d 04 h"),
            (1_076_400_000, "12 d 11 h"),
        ]

        @Test("The two largest units, seconds rounded up, Closed at zero", arguments: cases)
        func formats(milliseconds: Int, text: String) {
            #expect(TimeLeftFormat.string(remaining: .milliseconds(milliseconds)) == text)
        }

        @Test("A lot shows its time left at a moment, and Closed once the service closed it")
        func forLot() {
            let lot = AuctionFixtures.lot(1, closesAt: .seconds(100))
            #expect(TimeLeftFormat.string(for: lot, at: .seconds(55)) == "45 s")
            #expect(TimeLeftFormat.string(for: lot, at: .seconds(100)) == "Closed")
            #expect(TimeLeftFormat.string(for: lot.closed(), at: .zero) == "Closed")
        }

        @Test(
            "In German",
            arguments: [
                (7_500_000, "2 Std. 05 Min."), (45_000, "45 s"), (0, "Beendet"), (100_800_000, "1 Tg. 04 Std."),
            ])
        func formatsGerman(milliseconds: Int, text: String) {
            #expect(TimeLeftFormat.string(remaining: .milliseconds(milliseconds), in: .german) == text)
        }
    }

    @Suite struct BidCountFormatTests {
        @Test(
            "No bids, one bid, many bids",
            arguments: [(0, "No bids"), (1, "1 bid"), (2, "2 bids"), (3, "3 bids"), (1_204, "1,204 bids")])
        func formats(count: Int, text: String) {
            #expect(BidCountFormat.string(count: count) == text)
        }

        @Test(
            "In German",
            arguments: [(0, "Keine Gebote"), (1, "1 Gebot"), (2, "2 Gebote"), (1_204, "1.204 Gebote")])
        func formatsGerman(count: Int, text: String) {
            #expect(BidCountFormat.string(count: count, in: .german) == text)
        }
    }

    @Suite struct ListingOrderTests {
        @Test("Segments in order, with their labels and layouts")
        func segments() {
            #expect(
                ListingOrder.allCases.map { $0.title() } == [
                    "Grid", "Least bids", "Most bids", "Highest bid", "Lowest bid", "Alphabetical",
                ])
            #expect(
                ListingOrder.allCases.map { $0.title(in: .german) } == [
                    "Raster", "Wenigste Gebote", "Meiste Gebote", "Höchstes Gebot", "Niedrigstes Gebot", "Alphabetisch",
                ])
            #expect(ListingOrder.allCases.map(\.layout) == ["grid", "table", "table", "table", "table", "table"])
        }

        @Test("Named by id or label, ignoring case; anything else is no order")
        func names() {
            #expect(ListingOrder(name: "most-bids") == .mostBids)
            #expect(ListingOrder(name: "Most bids") == .mostBids)
            #expect(ListingOrder(name: "ALPHABETICAL") == .alphabetical)
            #expect(ListingOrder(name: "") == nil)
            #expect(ListingOrder(name: "newest") == nil)
        }

        @Test("Each order sorts as named; ties keep catalogue order whatever the input order")
        func sorting() {
            let lots = [
                AuctionFixtures.lot(1, title: "b", artist: "Y", bids: [20_000, 30_000]),
                AuctionFixtures.lot(2, title: "A", artist: "Z", bids: [20_000]),
                AuctionFixtures.lot(3, title: "a", artist: "X", startingCents: 30_000),
                AuctionFixtures.lot(4, title: "c", bids: [10_000, 20_000]),
                AuctionFixtures.lot(5, title: "A", artist: "Z"),
            ]
            func ids(_ order: ListingOrder, _ input: [Lot]) -> [Int] { order.sorted(input).map(\.number) }
            for input in [lots, lots.reversed(), [lots[3], lots[0], lots[4], lots[2], lots[1]]] {
                #expect(ids(.grid, input) == [1, 2, 3, 4, 5])
                #expect(ids(.leastBids, input) == [3, 5, 2, 1, 4])
                #expect(ids(.mostBids, input) == [1, 4, 2, 3, 5])
                #expect(ids(.highestBid, input) == [1, 3, 2, 4, 5])
                #expect(ids(.lowestBid, input) == [5, 2, 4, 1, 3])
                #expect(ids(.alphabetical, input) == [3, 2, 5, 1, 4])
            }
        }
    }
}
