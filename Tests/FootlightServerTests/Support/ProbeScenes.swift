import Dispatch
import Footlight
import FootlightJSON
import FootlightProbes
import FootlightServer
import FootlightTesting
import Foundation

/// Stages that exercise the server in tests.
enum ProbeScenes {
    /// "echo": event "say" takes a string and shows it in "/said"; "count" counts
    /// accepted "say" events, so a double application would show.
    static func echoStage() -> Stage {
        let said = PassthroughSubject<String, Never>()
        let stage = Stage(name: "echo")
        stage.bind(said.prepend(""), to: "said")
        stage.bind(said.scan(0) { total, _ in total + 1 }.prepend(0), to: "count")
        stage.on("say", send: said)
        return stage
    }

    /// "ticker": after event "start" with a number N, updates "/tick" N times, one
    /// update per session turn, each with `padding` bytes of text: a Director that
    /// produces far more than a slow client reads.
    static func tickerStage(environment: SessionEnvironment, padding: Int) -> Stage {
        let ticks = PassthroughSubject<Int, Never>()
        let start = PassthroughSubject<Int, Never>()
        let stage = Stage(name: "ticker")
        let filler = String(repeating: "x", count: padding)
        stage.bind(ticks.prepend(0), to: "tick")
        stage.bind(ticks.map { "\($0) \(filler)" }.prepend(""), to: "text")
        stage.on("start", send: start)
        let executor = environment.executor
        nonisolated(unsafe) let subject = ticks  // used only on the session's executor
        let subscription = start.sink { total in
            @Sendable func tick(_ next: Int) {
                guard next <= total else { return }
                subject.send(next)
                executor.execute { tick(next + 1) }
            }
            executor.execute { tick(1) }
        }
        stage.keep(subscription)
        return stage
    }

    /// The counter, plus an event "nap" whose Director blocks its thread for `seconds`:
    /// a stuck or slow Director. `log`, if given, records when naps start and end and
    /// when increments are handled, as the server saw them.
    static func nappingCounter(seconds: Double, log: NapLog? = nil) -> Stage {
        let stage = CounterScene.makeStage()
        let nap = PassthroughSubject<Void, Never>()
        stage.keep(
            nap.sink {
                log?.record(\.napStarts)
                Thread.sleep(forTimeInterval: seconds)
                log?.record(\.napEnds)
            })
        stage.on("nap", send: nap)
        if let log {
            let increment = PassthroughSubject<Void, Never>()
            stage.keep(increment.sink { log.record(\.increments) })
            stage.on("logged-increment", send: increment)
        }
        return stage
    }

    /// When, on the server, naps started and ended and logged increments were handled.
    final class NapLog: Sendable {
        struct Times {
            var napStarts: [ContinuousClock.Instant] = []
            var napEnds: [ContinuousClock.Instant] = []
            var increments: [ContinuousClock.Instant] = []
        }
        private let times = Locked(Times())

        func record(_ event: WritableKeyPath<Times, [ContinuousClock.Instant]>) {
            times.withLock { $0[keyPath: event].append(.now) }
        }

        var snapshot: Times { times.withLock { $0 } }
    }

    /// "ledger": event "add" carries a number, which the Director records. The document
    /// proves what was applied: "count" adds applied, "distinct" different numbers
    /// among them, "sum" of those numbers, "last" number, and "unordered" adds whose
    /// number was not the previous one plus one. A client that adds 1, 2, … n once each
    /// must see count = distinct = n, sum = n(n+1)/2 and unordered = 0; a lost add
    /// lowers distinct, a doubled one raises count above it.
    static func ledgerStage() -> Stage {
        let stage = Stage(name: "ledger")
        let tally = CurrentValueSubject<LedgerTally, Never>(LedgerTally())
        stage.bind(tally.map(\.count), to: "count")
        stage.bind(tally.map(\.seen.count), to: "distinct")
        stage.bind(tally.map(\.sum), to: "sum")
        stage.bind(tally.map(\.last), to: "last")
        stage.bind(tally.map(\.unordered), to: "unordered")
        stage.on("add") { (number: Int) in
            var next = tally.value
            next.count += 1
            next.seen.insert(number)
            next.sum &+= number
            if number != next.last &+ 1 { next.unordered += 1 }
            next.last = number
            tally.send(next)
        }
        return stage
    }

    /// What the ledger stage has applied.
    struct LedgerTally {
        var count = 0
        var seen: Set<Int> = []
        var sum = 0
        var last = 0
        var unordered = 0
    }

    /// Every probe stage plus the counter.
    /// A row of the "keyed" stage.
    struct ProbeRow: ViewValue, Identifiable, Equatable {
        let id: String
        let text: String
        var viewJSON: JSON { ["id": .string(id), "text": .string(text)] }
    }

    /// "keyed": a keyed collection in "/rows", changed row by row by event "change",
    /// whose value names one change: `{"op":"insert","id":"a","text":"…","at":0}`,
    /// `update` (id, text), `remove` (id), `move` (id, to), or `reset` (count: rows
    /// "r0"… with empty text). A value of another shape changes nothing.
    static func keyedStage() -> Stage {
        let changes = PassthroughSubject<[RowChange<ProbeRow>], Never>()
        let stage = Stage(name: "keyed")
        stage.bind(changes, to: "rows")
        stage.on("change") { (value: JSON) in
            let id = value["id"]?.stringValue ?? ""
            let text = value["text"]?.stringValue ?? ""
            func number(_ key: String) -> Int? {
                if case .int(let number)? = value[key] { Int(number) } else { nil }
            }
            switch value["op"]?.stringValue {
            case "insert": changes.send([.insert(ProbeRow(id: id, text: text), at: number("at"))])
            case "update": changes.send([.update(ProbeRow(id: id, text: text))])
            case "remove": changes.send([.remove(id: id)])
            case "move": changes.send([.move(id: id, to: number("to") ?? 0)])
            case "reset": changes.send([.reset((0..<(number("count") ?? 0)).map { ProbeRow(id: "r\($0)", text: "") })])
            default: break
            }
        }
        return stage
    }

    static let all: StageFactory = { environment in
        [CounterScene.makeStage(), echoStage(), tickerStage(environment: environment, padding: 2000)]
    }
}
