import Footlight
import Gallery
import Testing

@Suite struct CounterDirectorTests {
    @Test("The count starts at 0 and goes up by one per increment, formatted for display")
    func counts() {
        let increment = PassthroughSubject<Void, Never>()
        let director = CounterDirector(increment: increment.eraseToAnyPublisher())
        var texts: [String] = []
        let subscription = director.countText.sink { texts.append($0) }
        increment.send(())
        increment.send(())
        #expect(texts == ["Count: 0", "Count: 1", "Count: 2"])
        subscription.cancel()
    }
}
