import Testing

@testable import Footlight

@Suite("The room operators keep their latest values in")
struct ValueSlotTests {
    final class Tracked {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test("A slot holds the last value it was given, and lets go of the ones before and of its last when it goes")
    func holdsAndReleases() {
        weak var first: Tracked?
        weak var second: Tracked?
        do {
            var slot = ValueSlot<Tracked>()
            let emptyAtFirst = !slot.isFilled
            #expect(emptyAtFirst)
            do {
                let one = Tracked(1)
                first = one
                slot.fill(one)
            }
            let (filled, held) = (slot.isFilled, slot.value.number)
            #expect(filled && held == 1 && first != nil)
            do {
                let two = Tracked(2)
                second = two
                slot.fill(two)
            }
            let now = slot.value.number
            #expect(now == 2)
            #expect(first == nil, "the value it held before is released")
            #expect(second != nil)
        }
        #expect(second == nil, "its last value is released with the slot")
    }

    @Test("An empty slot goes without touching a value it never held")
    func emptyGoes() {
        do { _ = ValueSlot<[String]>() }
        var slot = ValueSlot<String>()
        slot.fill("a")
        slot.fill("b")
        let last = slot.value
        #expect(last == "b")
    }
}
