/// The demo auction's lots: twelve works by fictional artists, closing at staggered
/// times (the first within minutes, so a visitor sees a lot close).
public enum AuctionCatalogue {
    /// The lots, opened at `start` on the auction clock, in catalogue order.
    public static func lots(openedAt start: Duration = .zero) -> [Lot] {
        entries.enumerated().map { offset, entry in
            Lot(
                id: "lot-\(offset + 1)", number: offset + 1, title: entry.title, artist: entry.artist,
                medium: entry.medium, year: entry.year, summary: entry.summary,
                artwork: Artwork(kind: entry.kind, hue: entry.hue), startingPriceCents: entry.startingPriceCents,
                closesAt: start + entry.closesAfter)
        }
    }

    private struct Entry {
        let title: String
        let artist: String
        let medium: String
        let year: Int
        let summary: String
        let kind: Artwork.Kind
        let hue: Int
        let startingPriceCents: Int
        let closesAfter: Duration
    }

    private static let entries: [Entry] = [
        Entry(
            title: "Harbour at Dusk", artist: "Inès Moreau", medium: "Oil on canvas", year: 1968,
            summary: "Fishing boats come in under a violet sky; the lamps of the quay are just lit.",
            kind: .seascape, hue: 265, startingPriceCents: 120_000, closesAfter: .seconds(4 * 60)),
        Entry(
            title: "Blue Study No. 4", artist: "Tomasz Wróbel", medium: "Acrylic on board", year: 1987,
            summary: "Layered blues scraped back to the board, from a series of nine.",
            kind: .abstract, hue: 215, startingPriceCents: 45_000, closesAfter: .seconds(11 * 60)),
        Entry(
            title: "Portrait of a Clockmaker", artist: "Helena Voss", medium: "Oil on linen", year: 1931,
            summary: "The sitter holds a loupe to a pocket watch; his workshop recedes into shadow.",
            kind: .portrait, hue: 32, startingPriceCents: 380_000, closesAfter: .seconds(25 * 60)),
        Entry(
            title: "Still Life with Pears", artist: "Ada Lindqvist", medium: "Oil on canvas", year: 1952,
            summary: "Three pears and a pewter jug on a folded cloth, in the cool light of a north window.",
            kind: .stillLife, hue: 78, startingPriceCents: 90_000, closesAfter: .seconds(48 * 60)),
        Entry(
            title: "Mountain Pass in October", artist: "Rafael Ortega", medium: "Watercolour on paper", year: 1974,
            summary: "A road climbs between larches turned gold; the first snow lies on the ridge.",
            kind: .landscape, hue: 38, startingPriceCents: 30_000, closesAfter: .seconds(75 * 60)),
        Entry(
            title: "Night Ferry", artist: "Kenji Aoyama", medium: "Woodblock print", year: 1962,
            summary: "A ferry's lit windows cross a black bay; one of an edition of forty.",
            kind: .seascape, hue: 200, startingPriceCents: 25_000, closesAfter: .seconds(2 * 3600 + 5 * 60)),
        Entry(
            title: "Garden Wall, Late Summer", artist: "Margot Fairbairn", medium: "Oil on board", year: 1990,
            summary: "Hollyhocks against a sunlit brick wall, painted in a single sitting.",
            kind: .botanical, hue: 340, startingPriceCents: 60_000, closesAfter: .seconds(3 * 3600 + 30 * 60)),
        Entry(
            title: "Composition in Ochre", artist: "Lev Adamczyk", medium: "Oil and sand on canvas", year: 1959,
            summary: "Interlocking planes of ochre and umber with a single line of cadmium red.",
            kind: .abstract, hue: 30, startingPriceCents: 750_000, closesAfter: .seconds(5 * 3600)),
        Entry(
            title: "The Reader", artist: "Clara Estève", medium: "Pastel on paper", year: 1924,
            summary: "A young woman reads by a window, her face lit by the page.",
            kind: .portrait, hue: 20, startingPriceCents: 210_000, closesAfter: .seconds(8 * 3600)),
        Entry(
            title: "Salt Marsh, Morning", artist: "Owen Pryce", medium: "Oil on canvas", year: 2003,
            summary: "Mist lifting off channels of water; a heron stands at the edge of the reeds.",
            kind: .landscape, hue: 170, startingPriceCents: 150_000, closesAfter: .seconds(12 * 3600)),
        Entry(
            title: "Tulips in a Glass Jar", artist: "Noor Haddad", medium: "Gouache on paper", year: 2011,
            summary: "Striped tulips leaning out of a jar of water, their stems bent by the glass.",
            kind: .botanical, hue: 350, startingPriceCents: 40_000, closesAfter: .seconds(18 * 3600)),
        Entry(
            title: "Red Kite over Fields", artist: "Sigrid Holm", medium: "Etching with aquatint", year: 1996,
            summary: "A kite hangs on the wind above a patchwork of ploughed fields.",
            kind: .landscape, hue: 12, startingPriceCents: 18_000, closesAfter: .seconds(26 * 3600)),
    ]
}
