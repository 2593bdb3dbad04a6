import Footlight
import FootlightJSON

/// One visit to a kiosk-like page, read from the fuzzer's bytes: a shelf with a card
/// component per lot (each with its own input, an upload binding and a subscription of
/// its own), a header component replaced or removed, pages pushed and popped, events
/// delivered. Each byte is a step; the visit ends by ending the page (every stage
/// cancelled) or, when the first byte is odd, by dropping it unended, as a dropped
/// session is. Either way every stage and input made must be freed by then.
enum PageVisit {
    /// A lot of the shelf.
    struct Lot: ViewValue, Identifiable {
        let id: String
        let bids: Int
        var viewJSON: JSON { ["id": .string(id), "bids": .int(Int64(bids))] }
    }

    /// Weak references to what the visit made.
    final class Made {
        private var references: [() -> AnyObject?] = []
        func track<Object: AnyObject>(_ object: Object) -> Object {
            references.append { [weak object] in object }
            return object
        }
        var alive: Int { references.count { $0() != nil } }
    }

    static func run(_ bytes: UnsafeRawBufferPointer) {
        let made = Made()
        visit(bytes, made: made)
        require(made.alive == 0, "\(made.alive) stages or inputs outlived their page")
    }

    private static func visit(_ bytes: UnsafeRawBufferPointer, made: Made) {
        let host = PageHost()
        let lots = PassthroughSubject<[RowChange<Lot>], Never>()
        let shelf = made.track(Stage(name: "shelf"))
        shelf.place(header(made), at: "header")
        shelf.bind(lots, to: "lots", component: "card") { row in card(row, made: made) }
        host.show(shelf)
        var pages: [Stage] = []
        for (step, byte) in bytes.enumerated() {
            let id = "lot-\(byte & 0x0F)"
            switch byte >> 4 {
            case 0, 1: lots.send([.insert(Lot(id: id, bids: step), at: Int(byte & 0x03))])
            case 2, 3: lots.send([.update(Lot(id: id, bids: step))])
            case 4: lots.send([.remove(id: id)])
            case 5: lots.send([.move(id: id, to: Int(byte & 0x07))])
            case 6: lots.send([.reset((0..<Int(byte & 0x07)).map { Lot(id: "lot-\($0)", bids: step) })])
            case 7: shelf.place(header(made), at: "header")
            case 8: shelf.removeComponent(at: "header")
            case 9:
                let page = made.track(Stage(name: "page"))
                page.bind(Just(id), to: "lot")
                page.keep(lots.sink { [unowned page] _ in _ = page.name })
                pages.append(page)
                host.show(page)
            case 10: if let page = pages.popLast() { host.hide(page) }
            default:
                // An event for a card, as the page sends it (a bid, or a value it refuses).
                if let card = shelf.placedComponents.first(where: { $0.host.row == id })?.stage {
                    try? card.handle(event: byte & 1 == 0 ? "bid" : "photo", value: nil)
                }
            }
        }
        if bytes.first.map({ $0 & 1 == 0 }) ?? true {
            for page in pages { host.hide(page) }
            host.hide(shelf)
        }
    }

    private static func header(_ made: Made) -> Stage {
        let header = made.track(Stage(name: "header"))
        header.bind(Just("Auctions"), to: "name")
        return header
    }

    private static func card(_ row: AnyPublisher<Lot, Never>, made: Made) -> Stage {
        let bid = made.track(PassthroughSubject<Void, Never>())
        let card = made.track(Stage(name: "card"))
        let placed = bid.scan(0) { count, _ in count + 1 }.prepend(0)
        card.bind(row.map(\.bids).combineLatest(placed).map { $0 + $1 }, to: "bids")
        card.on("bid", send: bid)
        let photo = PassthroughSubject<UploadEvent, Never>()
        card.upload("photo", send: photo)
        // A subscription of the card's own that holds something of the page's, as a
        // scene's holds its context (which does not hold the stages).
        card.keep(photo.sink { _ in _ = made.alive })
        return card
    }

    /// Stops the fuzzer (a crash it saves) when `condition` does not hold.
    private static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("stage lifetime: \(message())") }
    }
}
