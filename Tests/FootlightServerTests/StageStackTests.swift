import Footlight
import FootlightServer
import FootlightTesting
import Testing

/// The session's list of stages on its own: page order, ids, look-ups by id after
/// stages are inserted between others, components appended and stages removed with
/// their components.
@Suite struct StageStackTests {
    /// Every entry's id found at its own index, and nothing else found.
    private func expectLookUpsAgree(_ stack: inout StageStack<Int>, sourceLocation: SourceLocation = #_sourceLocation) {
        for index in stack.indices {
            let id = stack[index].id
            let found = stack.index(of: id)
            #expect(found == index, "\(id)", sourceLocation: sourceLocation)
        }
        let nowhere = stack.index(of: "nowhere")
        #expect(nowhere == nil, sourceLocation: sourceLocation)
    }

    @Test("Look-ups by id stay right as stages are inserted in the middle, components appended and stages removed")
    func lookUps() throws {
        var stack = StageStack<Int>()
        _ = stack.add(Stage(name: "listings"), placement: .root, url: nil, extra: 0)
        let lot = stack.add(Stage(name: "lot"), placement: .push, url: "/lots/1", extra: 0)
        expectLookUpsAgree(&stack)
        var found = stack.index(of: "listings")
        let list = try #require(found)
        var cards: [String?] = []
        for row in 0..<5 {
            cards.append(
                stack.add(
                    Stage(name: "card"), in: "listings", at: ComponentHost(name: "rows", row: "r\(row)"), extra: row))
        }
        #expect(cards == ["card-c1", "card-c2", "card-c3", "card-c4", "card-c5"])
        expectLookUpsAgree(&stack)
        // A second root goes before the pushed lot and every component: everything after it moves.
        _ = stack.add(Stage(name: "banner"), placement: .root, url: nil, extra: 0)
        #expect(stack.entries.map(\.id).prefix(3) == ["listings", "banner", lot])
        expectLookUpsAgree(&stack)
        // A component placed in a component: removing the outer one takes both.
        let nested = stack.add(Stage(name: "badge"), in: "card-c2", at: ComponentHost(name: "badge"), extra: 0)
        #expect(nested == "badge-c6")
        found = stack.index(of: "card-c2")
        var removed = stack.remove(at: try #require(found)).map(\.id)
        #expect(removed == ["card-c2", "badge-c6"])
        expectLookUpsAgree(&stack)
        // A component with none of its own goes alone.
        found = stack.index(of: "card-c4")
        removed = stack.remove(at: try #require(found)).map(\.id)
        #expect(removed == ["card-c4"])
        expectLookUpsAgree(&stack)
        // The list goes with every component left.
        found = stack.index(of: "listings")
        #expect(found == list)
        removed = stack.remove(at: list).map(\.id)
        #expect(removed == ["listings", "card-c1", "card-c3", "card-c5"])
        #expect(stack.entries.map(\.id) == ["banner", lot])
        expectLookUpsAgree(&stack)
        let orphan = stack.add(Stage(name: "card"), in: "listings", at: ComponentHost(name: "rows"), extra: 0)
        #expect(orphan == nil, "no component for a stage that is gone")
    }

    @Test("Components removed together go in one pass, with their own components, parents first, and cancelled")
    func removeTogether() {
        var stack = StageStack<Int>()
        _ = stack.add(Stage(name: "listings"), placement: .root, url: nil, extra: 0)
        let cards = (0..<6).map { _ in Stage(name: "card") }
        for (row, card) in cards.enumerated() {
            _ = stack.add(card, in: "listings", at: ComponentHost(name: "rows", row: "r\(row)"), extra: row)
        }
        let badge = Stage(name: "badge")
        _ = stack.add(badge, in: "card-c2", at: ComponentHost(name: "badge"), extra: 0)
        let host = RecordingStageHost()
        badge.host = host
        // In any order; a stage the stack does not hold is passed over.
        let removed = stack.remove([cards[4], cards[1], Stage(name: "stranger"), cards[2]])
        #expect(removed.map(\.id) == ["card-c2", "card-c3", "card-c5", "badge-c7"])
        #expect(stack.entries.map(\.id) == ["listings", "card-c1", "card-c4", "card-c6"])
        expectLookUpsAgree(&stack)
        #expect(badge.host == nil, "the nested component is cancelled too")
        #expect(host.changes == 0)
        // One alone, and none, take the same path.
        #expect(stack.remove([cards[0]]).map(\.id) == ["card-c1"])
        #expect(stack.remove([]).isEmpty)
        #expect(stack.remove([cards[0]]).isEmpty, "already gone")
        // The list's last ones, with the list kept.
        #expect(stack.remove([cards[3], cards[5]]).map(\.id) == ["card-c4", "card-c6"])
        #expect(stack.entries.map(\.id) == ["listings"])
        let again = stack.add(Stage(name: "card"), in: "listings", at: ComponentHost(name: "rows", row: "r0"), extra: 0)
        #expect(again == "card-c8")
    }
}
