import BenchSupport
import FootlightJSON

/// A small, fast, seeded pseudo-random generator (SplitMix64), so every run of the
/// benchmark builds byte-for-byte the same documents.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A value in `0..<bound`. The slight modulo bias does not matter here; what
    /// matters is that it depends on nothing but the seed.
    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[next(below: choices.count)]
    }
}

/// The documents the JSON benchmarks work on: an auction view holding a keyed list
/// of lots, `{"title": …, "lots": [{"id": "lot-1", "title": …, …}, …]}`.
enum Documents {
    /// The member holding the list, so the rows live at `/lots/<index>`.
    static let listKey = "lots"

    /// An auction view with `rows` lots. The same `rows` and `seed` always give the same
    /// document.
    static func auction(rows: Int, seed: UInt64 = 0xF007_1167) -> JSON {
        var random = SplitMix64(seed: seed)
        var lots: [JSON] = []
        lots.reserveCapacity(rows)
        for index in 0..<rows {
            lots.append(lot(number: index + 1, random: &random))
        }
        return ["title": "Evening sale", "currency": "USD", listKey: .array(lots)]
    }

    /// `document` with the `bid` of the row at `index` raised, and nothing else changed.
    static func raisingBid(in document: JSON, atRow index: Int) -> JSON {
        guard case .object(var members) = document, case .array(var lots)? = members[listKey],
            case .object(var row) = lots[index]
        else { fatalError("not an auction document") }
        row["bid"] = .string("$999,999.99")
        lots[index] = .object(row)
        members[listKey] = .array(lots)
        return .object(members)
    }

    /// `document` with its list of lots in reverse order.
    static func reversingLots(in document: JSON) -> JSON {
        guard case .object(var members) = document, case .array(let lots)? = members[listKey] else {
            fatalError("not an auction document")
        }
        members[listKey] = .array(lots.reversed())
        return .object(members)
    }

    // MARK: Rows

    private static func lot(number: Int, random: inout SplitMix64) -> JSON {
        let title = "\(random.pick(adjectives)) \(random.pick(subjects)) \(random.pick(settings))"
        let artist = "\(random.pick(givenNames)) \(random.pick(familyNames))"
        let cents = 5_000 + random.next(below: 2_500_000)
        let hours = random.next(below: 72)
        let minutes = random.next(below: 60)
        return [
            "id": .string("lot-\(number)"),
            "title": .string(title),
            "artist": .string(artist),
            "bid": .string(dollars(cents: cents)),
            "bids": .int(Int64(random.next(below: 60))),
            "timeLeft": .string("\(hours)h \(minutes)m"),
        ]
    }

    /// `cents` written as a price: `123456` is `"$1,234.56"`.
    static func dollars(cents: Int) -> String {
        let fraction = cents % 100
        return "$\(Format.count(cents / 100)).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    private static let adjectives = [
        "Quiet", "Golden", "Fractured", "Late", "Northern", "Blue", "Untitled", "Early", "Silent", "Crimson",
    ]
    private static let subjects = [
        "Harbour", "Study", "Portrait", "Garden", "Still Life", "Composition", "Figure", "Landscape", "Interior",
    ]
    private static let settings = [
        "at Dusk", "in Winter", "No. 7", "with Lemons", "(after Vermeer)", "— Series II", "by the Sea", "at Noon",
    ]
    private static let givenNames = [
        "Ada", "Bruno", "Chloé", "Dmitri", "Eiko", "Farah", "Gustav", "Hilde", "Íñigo", "Jun",
    ]
    private static let familyNames = [
        "Albers", "Brâncuși", "Carrington", "Dalí", "Escher", "Frankenthaler", "Gorky", "Hepworth", "Kusama", "Nolde",
    ]
}
