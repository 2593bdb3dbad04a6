import Footlight
import FootlightJSON
import FootlightTesting
import Testing

/// Weak references to the stages and Directors a test made, by kind: once their session
/// lets them go (a component removed, a stage popped, the session gone), each must be
/// freed with its bindings and subscriptions.
private final class Lifetimes: Sendable {
    private struct Entry: @unchecked Sendable {
        // @unchecked: a weak reference, read and written only under `entries`' lock.
        weak var object: AnyObject?
        let kind: String
    }
    private let entries = Locked<[Entry]>([])

    /// Remembers `object` (weakly) as one of `kind`; returns it.
    @discardableResult
    func track<Object: AnyObject>(_ object: Object, as kind: String) -> Object {
        entries.withLock { $0.append(Entry(object: object, kind: kind)) }
        return object
    }

    /// How many of `kind` are alive (every kind when nil).
    func alive(_ kind: String? = nil) -> Int {
        entries.withLock { entries in entries.count { $0.object != nil && (kind == nil || $0.kind == kind) } }
    }

    /// How many were made in all.
    var made: Int { entries.withLock { $0.count } }
}

/// A lot of the shelf, one card each.
private struct Lot: ViewValue, Identifiable, Sendable {
    let id: String
    let title: String
    var viewJSON: JSON { ["id": .string(id), "title": .string(title)] }
}

/// What the visitor does on the shelf, sent by the test.
private enum Step: Sendable {
    case open(String)
    case back
    case replaceHeader
}

/// A card's Director: its text from the row and the bids placed on it.
private final class CardDirector {
    let bid = PassthroughSubject<Void, Never>()
    let text: AnyPublisher<String, Never>

    init(row: AnyPublisher<Lot, Never>) {
        let bids = bid.scan(0) { count, _ in count + 1 }.prepend(0)
        text = row.map(\.title).combineLatest(bids).map { "\($0) (\($1) bids)" }.eraseToAnyPublisher()
    }
}

/// A kiosk-like page: a shelf with one card component per lot (each with a Director, an
/// event, an upload and a subscription that holds the context), a header component
/// that is replaced, and a lot's page pushed and popped.
private struct ShelfScene: Scene {
    let lots: AnyPublisher<[RowChange<Lot>], Never>
    let steps: AnyPublisher<Step, Never>
    let lifetimes: Lifetimes

    func makeStage(context: Context) -> Stage {
        let stage = lifetimes.track(Stage(name: "shelf"), as: "shelf")
        stage.place(header(), at: "header")
        stage.bind(lots, to: "lots", component: "card") { [lifetimes] row in
            Self.card(row, context: context, lifetimes: lifetimes)
        }
        stage.keep(
            steps.sink { [unowned stage, lifetimes] step in
                switch step {
                case .open(let id):
                    let page = lifetimes.track(
                        NotFoundScene(path: "/lots/\(id)").makeStage(context: context), as: "page")
                    context.push(Shown(stage: page), url: "/lots/\(id)")
                case .back: context.pop()
                case .replaceHeader: stage.place(header(), at: "header")
                }
            })
        return stage
    }

    private func header() -> Stage {
        let header = lifetimes.track(Stage(name: "header"), as: "header")
        header.bind(Just("Auctions"), to: "name")
        return header
    }

    private static func card(_ row: AnyPublisher<Lot, Never>, context: Context, lifetimes: Lifetimes) -> Stage {
        let director = CardDirector(row: row)
        // The Director's input: the stage's event and binding hold it, and a subscription
        // left running would keep it alive (a subject and its subscriptions hold each other).
        lifetimes.track(director.bid, as: "input")
        let card = lifetimes.track(Stage(name: "card"), as: "card")
        card.bind(director.text, to: "text")
        card.on("bid", send: director.bid)
        let photo = PassthroughSubject<UploadEvent, Never>()
        card.upload("photo", send: photo)
        card.keep(photo.sink { _ in context.open(url: "/photos") })
        return card
    }
}

/// A stage made already, shown as a scene.
private struct Shown: Scene {
    let stage: Stage
    func makeStage(context: Context) -> Stage { stage }
}

@Suite struct StageLifetimeTests {
    private final class Broker: UploadBroker {
        var stage: Stage?
        func begin(_ file: UploadDescription, limits: UploadLimits, deliver: @escaping (UploadEvent) -> Void)
            throws(UploadError) -> UploadTicket
        { throw UploadError(.storage, file: file.name, "none") }
        func resume(_ id: String) throws(UploadError) -> UploadTicket {
            throw UploadError(.abandoned, file: nil, "none")
        }
        func cancel(_ id: String, with error: UploadError) {}
    }

    @Test("A stage does not keep its session (its upload broker) alive: the two are no cycle")
    func brokerIsNoOwner() {
        weak var stage: Stage?
        weak var broker: Broker?
        do {
            let session = Broker()
            let shown = Stage(name: "form")
            shown.upload("avatar", send: PassthroughSubject<UploadEvent, Never>())
            shown.host = RecordingStageHost(uploadBroker: session)
            session.stage = shown
            stage = shown
            broker = session
        }
        #expect(broker == nil)
        #expect(stage == nil)
    }

    /// The regression test for the cycle through the session that leaked every stage of
    /// a session dropped without being ended (1.3 MB under LeakSanitizer in one test run).
    @Test("Soak: kiosk-like sessions whose components come and go free every stage and Director input they made")
    func soak() {
        let lifetimes = Lifetimes()
        let sessions = 20
        let rounds = 10
        let lotsPerRound = 12
        for session in 0..<sessions {
            let lots = PassthroughSubject<[RowChange<Lot>], Never>()
            let steps = PassthroughSubject<Step, Never>()
            do {
                nonisolated(unsafe) let scene = ShelfScene(
                    lots: lots.eraseToAnyPublisher(), steps: steps.eraseToAnyPublisher(), lifetimes: lifetimes)
                let tester = SceneTester({ context, _ in context.show(scene) })
                for round in 0..<rounds {
                    let ids = (0..<lotsPerRound).map { "s\(session)-r\(round)-\($0)" }
                    // A new page of lots: the last round's cards go.
                    lots.send([.reset(ids.map { Lot(id: $0, title: "Lot \($0)") })])
                    lots.send([.update(Lot(id: ids[0], title: "Lot, new title")), .remove(id: ids[1])])
                    lots.send([
                        .insert(Lot(id: "extra-\(round)", title: "Extra"), at: 0), .remove(id: "extra-\(round)"),
                    ])
                    steps.send(.open(ids[2]))
                    tester.settle()
                    #expect(lifetimes.alive("page") == 1)
                    steps.send(.back)
                    steps.send(.replaceHeader)
                    tester.settle()
                    #expect(lifetimes.alive("card") == lotsPerRound - 1, "removed cards are freed")
                    #expect(lifetimes.alive("input") == lotsPerRound - 1, "with their Directors' inputs")
                    #expect(lifetimes.alive("page") == 0, "a popped stage is freed")
                    #expect(lifetimes.alive("header") == 1, "a replaced component is freed")
                    #expect(lifetimes.alive("shelf") == 1)
                }
                #expect(tester.componentIDs.count == lotsPerRound)
            }
            // The session is gone (dropped, never ended): all it made goes with it.
            #expect(lifetimes.alive() == 0, "session \(session)")
        }
        #expect(lifetimes.made == sessions * (1 + rounds * (2 * (lotsPerRound + 1) + 2) + 1))
        #expect(lifetimes.alive() == 0)
    }
}
