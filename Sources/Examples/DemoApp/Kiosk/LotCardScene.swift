import Footlight

/// One lot of the listings, a component per row (`lot-card`): its card in the grid or
/// its line of the table, updated as bids and the clock change it.
///
/// The card's document is its row alone (slot `lot`), so a bid on one lot patches that
/// card and nothing else, and a new order only moves the listings' ids. It takes no
/// event of its own: a tap on it bubbles to the listings' row around it, whose `open`
/// names the row.
public struct LotCardScene: Scene {
    let row: AnyPublisher<LotRow, Never>

    /// - Parameter row: the lot's row, at once and after each change (the listings' list
    ///   of components feeds it, ``Stage/bind(_:to:component:make:)``).
    public init(row: AnyPublisher<LotRow, Never>) {
        self.row = row
    }

    public func makeStage(context: Context) -> Stage {
        let stage = Stage(name: "lot-card")
        stage.bind(row, to: "lot")
        return stage
    }
}
