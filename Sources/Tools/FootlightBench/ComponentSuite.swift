import BenchSupport
import Footlight
import FootlightJSON
import FootlightServer
import Foundation

/// The `components` benchmark: a list of 1,000 rows re-sorted, as a keyed collection of
/// rows and as a list of components (one per row, each with its own document), through a
/// real `Stage` and `SessionState`: the server's time from the Director's output to the
/// encoded messages, and their bytes. Both lists take turns in one run.
struct ComponentSuite {
    let budget: Budget

    /// A lot as the list shows it.
    struct Item: ViewValue, Identifiable, Equatable {
        let id: String
        let title: String
        let price: String
        let bids: Int
        var viewJSON: JSON {
            ["id": .string(id), "title": .string(title), "price": .string(price), "bids": .int(Int64(bids))]
        }
    }

    /// One session showing one stage and its components, wired as the live driver
    /// wires them (``SessionHost``) and flushed by hand.
    private final class Session: SessionHost {
        var state = SessionState(token: "bench", configuration: .init(), now: .now)
        /// The messages the last flush sent.
        private var last: [WireMessage] = []

        init(stage: Stage) {
            _ = state.attach(1, resumeAfter: nil, path: nil)
            present(stage, placement: .root, url: nil)
            _ = flush()
        }

        func startApp(path: String, modals: [String]) {}
        func carryOut(_ action: ProtocolAction) {}
        func startOver(reason: String) {}

        /// Flushes what changed and returns the bytes sent; the client acknowledges at
        /// once, so the replay buffer stays small.
        func flush() -> Int {
            last = []
            for case .send(let messages) in state.flush(unsentBytes: 0) { last += messages }
            _ = state.acknowledge(seq: state.nextSeq - 1)
            return last.reduce(0) { $0 + $1.bytes.count }
        }

        /// The messages the last flush sent, by type.
        var sent: [String: Int] {
            last.reduce(into: [:]) { counts, message in
                counts[(try? JSON.parse(message.bytes))?[.type]?.stringValue ?? "?", default: 0] += 1
            }
        }
    }

    /// Runs the measurements, prints the table, and returns the checksum.
    func run() throws -> Int {
        let count = 1_000
        let ascending = (0..<count).map { index in
            Item(
                id: "lot-\(index)", title: "Lot \(index + 1)", price: "$\(1_000 + index * 25).00", bids: index % 17)
        }
        // First, before the timed runs free memory that later allocations would reuse.
        let memoryTable = try memory(of: ascending)
        let descending = Array(ascending.reversed())
        var lifted = ascending
        lifted.insert(lifted.remove(at: count / 2), at: 0)
        let repriced = ascending.map { Item(id: $0.id, title: $0.title, price: $0.price + "0", bids: $0.bids + 1) }
        // Turns alternate between the two lists of each pair (both in one timed run when
        // `bothWays`); a re-sort moves the components with their rows (no mount, no
        // unmount, one patch).
        let orders: [(name: String, orders: [[Item]], isResort: Bool, bothWays: Bool)] = [
            ("Re-sorted (reversed)", [ascending, descending], true, false),
            ("One row moved to the top", [ascending, lifted], true, false),
            ("Every row changed (price and bids)", [ascending, repriced], false, false),
            ("Shown, then cleared (two turns)", [ascending, []], false, true),
        ]

        var table = MarkdownTable([
            ("1,000 rows", .left), ("List", .left), ("Median", .right), ("Min", .right),
            ("Runs", .right), ("Bytes sent", .right), ("Messages (last turn)", .left), ("Time vs. rows", .right),
            ("Bytes vs. rows", .right),
        ])
        var checksum = 0
        for (name, pair, isResort, bothWays) in orders {
            let (rowStage, rows) = Self.list(of: pair[0], asComponents: false)
            let rowSession = Session(stage: rowStage)
            let (cardStage, cards) = Self.list(of: pair[0], asComponents: true)
            let cardSession = Session(stage: cardStage)
            guard cardSession.state.stages.count == count + 1 else {
                throw JSONSuite.CheckFailed(
                    description: "\(cardSession.state.stages.count - 1) components, not \(count)")
            }

            let changes = [
                RowChange.changes(from: pair[0], to: pair[1]), RowChange.changes(from: pair[1], to: pair[0]),
            ]
            var turn = (rows: 0, cards: 0)
            var bytes = (rows: 0, cards: 0)
            let timings = try measure(
                budget,
                [
                    {
                        bytes.rows = 0
                        for _ in 0..<(bothWays ? 2 : 1) {
                            rows.send(changes[turn.rows])
                            turn.rows ^= 1
                            bytes.rows += rowSession.flush()
                        }
                        return bytes.rows
                    },
                    {
                        bytes.cards = 0
                        for _ in 0..<(bothWays ? 2 : 1) {
                            cards.send(changes[turn.cards])
                            turn.cards ^= 1
                            bytes.cards += cardSession.flush()
                        }
                        return bytes.cards
                    },
                ])
            // A re-sort moves the components with their rows: no mount, no unmount, and
            // no component patch; the same rows in the same order either way.
            if isResort {
                guard cardSession.sent.keys.sorted() == [Wire.Server.patch.rawValue],
                    cardSession.sent[Wire.Server.patch.rawValue] == 1,
                    cardSession.state.stages.count == count + 1
                else { throw JSONSuite.CheckFailed(description: "a re-sort of components sent \(cardSession.sent)") }
            }
            // One component per row shown, whichever list of the pair the last turn sent.
            let shown = cardStage.document["items"]?.arrayValue?.count ?? -1
            guard cardSession.state.stages.count == shown + 1 else {
                throw JSONSuite.CheckFailed(
                    description: "\(cardSession.state.stages.count - 1) components for \(shown) rows")
            }
            let rowIDs = rowStage.document["items"]?.arrayValue?.map { $0["id"] }
            guard rowIDs == cardStage.document["items"]?.arrayValue?.map({ $0["id"] }) else {
                throw JSONSuite.CheckFailed(description: "the two lists are in different orders")
            }
            for (label, timing, sent, messages) in [
                ("Keyed rows", timings[0], bytes.rows, rowSession.sent),
                ("Components (one per row)", timings[1], bytes.cards, cardSession.sent),
            ] {
                table.append(
                    name, label, Format.time(timing.median), Format.time(timing.min), String(timing.runs),
                    Format.count(sent),
                    messages.sorted { $0.key < $1.key }.map { "\($1) \($0)" }.joined(separator: ", "),
                    Format.ratio(timing.median.seconds / timings[0].median.seconds),
                    Format.ratio(Double(sent) / Double(bytes.rows)))
            }
            checksum = timings.reduce(checksum) { $0 &+ $1.checksum }
        }
        print(
            "### A list of 1,000 components re-sorted, changed, shown and cleared, against the same list of keyed rows\n"
        )
        print(table.text)
        print()
        print(
            "Release build. Server time from the Director's output (the row changes) to the encoded messages,"
                + " median and fastest of the timed runs after \(budget.warmupRuns) warm-up runs, the two lists"
                + " taking turns. Each row: id, title, price and bid count; each component binds the three."
                + " A re-sort of more than \(RowChange<Item>.maximumChanges) changes is sent as the list whole.")
        print()
        print(memoryTable)
        return checksum
    }

    /// Stage "lots" showing `items` in slot "items", as keyed rows or as one component
    /// per row (binding the row's title, price and bids), and the input of its changes.
    private static func list(of items: [Item], asComponents: Bool) -> (
        Stage, PassthroughSubject<[RowChange<Item>], Never>
    ) {
        let changes = PassthroughSubject<[RowChange<Item>], Never>()
        let stage = Stage(name: "lots")
        if asComponents {
            stage.bind(changes, to: "items", component: "card") { row in
                let card = Stage(name: "lot-card")
                card.bind(row.map(\.title), to: "title")
                card.bind(row.map(\.price), to: "price")
                card.bind(row.map(\.bids), to: "bids")
                return card
            }
        } else {
            stage.bind(changes, to: "items")
        }
        changes.send([.reset(items)])
        return (stage, changes)
    }

    /// The process's resident memory from the growth of `sessions` sessions showing
    /// `items`: first as keyed rows, then, kept beside them (so that no freed memory is
    /// reused), as components. A table in Markdown.
    private func memory(of items: [Item], sessions: Int = 20) throws -> String {
        var kept: [Any] = []
        var growth: [Int] = []
        for asComponents in [false, true] {
            let before = try Self.residentBytes()
            for _ in 0..<sessions {
                let (stage, changes) = Self.list(of: items, asComponents: asComponents)
                kept.append(Session(stage: stage))
                kept.append(changes)
            }
            growth.append(try Self.residentBytes() - before)
        }
        var table = MarkdownTable([
            ("\(sessions) sessions × \(Format.count(items.count)) rows", .left), ("Resident growth", .right),
            ("Per row shown", .right), ("vs. keyed rows", .right),
        ])
        let shown = Double(sessions * items.count)
        for (label, bytes) in zip(["Keyed rows", "Components (one per row)"], growth) {
            table.append(
                label, String(format: "%.1f MiB", Double(bytes) / 1_048_576),
                String(format: "%.2f KiB", Double(bytes) / shown / 1_024),
                Format.ratio(Double(bytes) / Double(max(1, growth[0]))))
        }
        withExtendedLifetime(kept) {}
        return "### Memory: 1,000 rows shown in each of \(sessions) sessions\n\n" + table.text
            + "\n\nResident memory of the benchmark's process (/proc/self/statm) before and after making the"
            + " sessions, each a real SessionState with its stage (and, for components, one stage per row with"
            + " its three bindings), flushed once."
    }

    /// This process's resident memory, in bytes.
    private static func residentBytes() throws -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { throw JSONSuite.CheckFailed(description: "/proc/self/statm cannot be read") }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
