import Footlight

/// One lot of the listings, a component per row (`lot-card`): its card in the grid or
/// its line of the table, updated as bids and the clock change it, and a tap that opens
/// the lot.
///
/// The card's document is its row alone (slot `lot`), so a bid on one lot patches that
/// card and nothing else, and a new order only moves the listings' ids.
public struct LotCardScene: Scene {
    let row: AnyPublisher<LotRow, Never>
    let open: PassthroughSubject<String, Never>

    /// - Parameters:
    ///   - row: the lot's row, at once and after each change (the listings' list of
    ///     components feeds it, ``Stage/bind(_:to:component:make:)``).
    ///   - open: where a tap on the card sends the lot's id.
    public init(row: AnyPublisher<LotRow, Never>, open: PassthroughSubject<String, Never>) {
        self.row = row
        self.open = open
    }

    public func makeStage(context: Context) -> Stage {
        let tap = PassthroughSubject<Void, Never>()
        let stage = Stage(name: "lot-card")
        stage.bind(row, to: "lot")
        // A card stays with its lot: the row, sent at once, names it for good (taking it
        // from each update instead would cost every session a subscription per card).
        var lotID = ""
        _ = row.first().sink { lotID = $0.id }
        // One at a time: a double click on a card opens one page.
        stage.on("open", send: tap, options: .oneAtATime)
        let open = self.open
        stage.keep(tap.sink { open.send(lotID) })
        return stage
    }
}
