import Footlight

/// The logic of a counter: each increment adds one. Knows nothing of HTML, sockets
/// or sessions, so it is tested with plain publishers.
public struct CounterDirector {
    /// The current count: 0 on subscription, then one more for each increment.
    public let count: AnyPublisher<Int, Never>
    /// The count as the page shows it ("Count: 3").
    public let countText: AnyPublisher<String, Never>

    public init(increment: AnyPublisher<Void, Never>) {
        count = increment.scan(0) { total, _ in total + 1 }.prepend(0).eraseToAnyPublisher()
        countText = count.map { "Count: \($0)" }.eraseToAnyPublisher()
    }
}
