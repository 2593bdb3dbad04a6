import DemoApp
import FootlightJSON
import FootlightTesting
import Testing

/// The listings' lots, one `lot-card` component per row, seen through a ``SceneTester``.
extension SceneTester {
    /// The instance id of the card of lot `lotID` in the listings, or nil when none.
    func card(_ lotID: String) -> String? {
        component("card", row: lotID, in: "listings")
    }

    /// What each card of the listings shows (its `lot` slot), by lot id; nil for a
    /// card not there.
    func cards(_ lotIDs: [String]) -> [JSON?] {
        lotIDs.map { card($0).flatMap { document($0)?["lot"] } }
    }

    /// Asserts that the cards of `rows` changed to show them (and fails for a card not
    /// there).
    func expectCards(_ rows: [LotRow], sourceLocation: SourceLocation = #_sourceLocation) {
        for row in rows {
            guard let card = card(row.id) else {
                Issue.record("no card for \(row.id) in the listings", sourceLocation: sourceLocation)
                continue
            }
            expect(card, ["lot": row.viewJSON], sourceLocation: sourceLocation)
        }
    }
}
