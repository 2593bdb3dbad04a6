import BenchSupport
import Footlight
import FootlightJSON
import FootlightServer

/// The server's time for a 1-field change in row 5,000 of 10,000, from the Director's
/// output to the encoded patch message, through a real `Stage` and `SessionState`:
/// once with the rows bound as a plain array (the whole list diffed) and once as a keyed
/// collection (``RowChange``), taking turns in one run.
struct KeyedCollectionCase {
    /// A row of the auction document, as a Director would output it.
    struct Row: ViewValue, Identifiable {
        let id: String
        let viewJSON: JSON
    }

    /// One session showing one stage, flushed by hand as its driver would.
    private final class Session {
        var state = SessionState(token: "bench", configuration: .init(), now: .now)
        let stageID: String

        init(stage: Stage) {
            let (id, _) = state.present(stage, placement: .root, url: nil)
            stageID = id
            _ = state.attach(1, resumeAfter: nil, path: nil)
            _ = flush()
        }

        /// Flushes the changed stage and returns the bytes sent; the client acknowledges
        /// at once, so the replay buffer stays small.
        func flush() -> Int {
            _ = state.stageChanged(stageID)
            var bytes = 0
            for action in state.flush(unsentBytes: 0) {
                if case .send(let messages) = action { bytes += messages.reduce(0) { $0 + $1.bytes.count } }
            }
            _ = state.acknowledge(seq: state.nextSeq - 1)
            return bytes
        }

        /// Flushes the changed stage and returns the operations of the patch it sent.
        func flushedOperations() throws -> [PatchOperation] {
            _ = state.stageChanged(stageID)
            guard case .send(let messages)? = state.flush(unsentBytes: 0).first, let message = messages.first,
                let ops = try JSON.parse(message.bytes)[.operations]
            else { throw JSONSuite.CheckFailed(description: "no patch for the change") }
            return try JSONPatch(json: ops).operations
        }
    }

    let budget: Budget

    /// Measures both bindings and prints the table; returns the checksum.
    func run(_ document: JSON) throws -> Int {
        let rowIndex = 4_999
        guard let rows = document[Documents.listKey]?.arrayValue, rows.count > rowIndex,
            let changedRow = Documents.raisingBid(in: document, atRow: rowIndex)[Documents.listKey]?.arrayValue?[
                rowIndex]
        else { throw JSONSuite.CheckFailed(description: "the auction document has no row \(rowIndex)") }
        let versions = [rows[rowIndex], changedRow].map {
            Row(id: rows[rowIndex]["id"]?.stringValue ?? "", viewJSON: $0)
        }

        // The whole list: two arrays sharing every row but one, sent in turn (as JSON, so
        // the time is the diff's, not a conversion's).
        let wholeList = CurrentValueSubject<JSON, Never>(.array(rows))
        let wholeStage = Stage(name: "lots")
        wholeStage.bind(wholeList, to: Documents.listKey)
        let whole = Session(stage: wholeStage)
        var changedRows = rows
        changedRows[rowIndex] = changedRow
        let arrays: [JSON] = [.array(rows), .array(changedRows)]

        // The keyed collection: one update of the row, in turn to either version.
        let keyedChanges = PassthroughSubject<[RowChange<Row>], Never>()
        let keyedStage = Stage(name: "lots")
        keyedStage.bind(keyedChanges, to: Documents.listKey)
        keyedChanges.send([.reset(rows.map { Row(id: $0["id"]?.stringValue ?? "", viewJSON: $0) })])
        let keyed = Session(stage: keyedStage)

        var turn = (whole: 0, keyed: 0)
        var operations = (whole: 0, keyed: 0)
        let timings = try measure(
            budget,
            [
                {
                    turn.whole ^= 1
                    wholeList.send(arrays[turn.whole])
                    return whole.flush()
                },
                {
                    turn.keyed ^= 1
                    keyedChanges.send([.update(versions[turn.keyed])])
                    return keyed.flush()
                },
            ])
        // One more change each, checked: one operation each (the keyed one replaces the
        // row), and both stages then hold the same document.
        wholeList.send(arrays[turn.whole ^ 1])
        keyedChanges.send([.update(versions[turn.keyed ^ 1])])
        let check = try [whole, keyed].map { try $0.flushedOperations() }
        operations = (check[0].count, check[1].count)
        guard check[0].count == 1, check[1].count == 1, check[1].first?.name == "replace",
            check[1].first?.path.description == "/\(Documents.listKey)/\(rowIndex)"
        else { throw JSONSuite.CheckFailed(description: "unexpected patches: \(check)") }
        guard wholeStage.document == keyedStage.document else {
            throw JSONSuite.CheckFailed(description: "the two bindings hold different documents")
        }

        print("\n### 1 field in row 5,000 of 10,000: server time from the Director's output to the encoded patch\n")
        var table = MarkdownTable([
            ("Binding", .left), ("Median", .right), ("Min", .right), ("Runs", .right), ("Ops", .right),
            ("vs. keyed", .right),
        ])
        for (label, timing, ops) in [
            ("Plain array (whole-list diff)", timings[0], operations.whole),
            ("Keyed collection (`RowChange.update`)", timings[1], operations.keyed),
        ] {
            table.append(
                label, Format.time(timing.median), Format.time(timing.min), String(timing.runs), String(ops),
                Format.ratio(timing.median.seconds / timings[1].median.seconds))
        }
        print(table.text)
        return timings.reduce(0) { $0 &+ $1.checksum }
    }
}
