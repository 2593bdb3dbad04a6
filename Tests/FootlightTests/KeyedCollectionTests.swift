import Footlight
import FootlightJSON
import FootlightProbes
import FootlightTesting
import Testing

/// A row of the keyed collections under test.
struct Item: ViewValue, Identifiable, Equatable, Sendable {
    let id: String
    var text: String

    var viewJSON: JSON { ["id": .string(id), "text": .string(text)] }
}

/// A stage with one keyed slot "rows", fed by `changes`; records what the session
/// would send and what it would log.
final class KeyedProbe: StageHost {
    let stage = Stage(name: "list")
    let changes = PassthroughSubject<[RowChange<Item>], Never>()
    var failures: [String] = []
    var changeCalls = 0
    /// The page's copy, kept by applying each batch of taken operations.
    var replica: JSON

    init() {
        stage.bind(changes, to: "rows")
        stage.bind(Just("Lots"), to: "title")
        replica = stage.document
        stage.host = self
    }

    func stageChanged() { changeCalls += 1 }
    func stageFailed(_ message: String) { failures.append(message) }
    func stageRuns(_ commands: [ClientCommand]) {}
    func stagePlaced(_ component: Stage, at host: ComponentHost) {}
    func stageRemoved(_ components: [Stage]) {}
    var uploadBroker: (any UploadBroker)? { nil }

    func send(_ batch: RowChange<Item>...) { changes.send(batch) }

    /// Takes the pending operations and applies them to the replica, which must then
    /// equal the stage's document.
    @discardableResult
    func sync(sourceLocation: SourceLocation = #_sourceLocation) throws -> [PatchOperation] {
        let operations = stage.takeRowOperations()
        replica = try JSONPatch(operations).applied(to: replica)
        #expect(replica == stage.document, sourceLocation: sourceLocation)
        return operations
    }

    var ids: [String] { stage.document["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [] }
}

@Suite struct KeyedCollectionTests {
    static func items(_ count: Int, text: String = "") -> [Item] {
        (0..<count).map { Item(id: "r\($0)", text: text) }
    }

    @Test("A keyed slot starts empty; each change is one operation addressing the row where it stands")
    func eachChangeIsOneOperation() throws {
        let probe = KeyedProbe()
        #expect(probe.stage.document == ["title": "Lots", "rows": []])
        #expect(probe.stage.valueDocument == ["title": "Lots"], "the session diffs the values only")
        probe.send(.reset(Self.items(3)))
        try probe.sync()
        probe.send(.insert(Item(id: "new", text: "n"), at: 1))
        #expect(try probe.sync() == [.add(path: JSONPointer("/rows/1"), value: ["id": "new", "text": "n"])])
        probe.send(.update(Item(id: "r2", text: "changed")))
        #expect(try probe.sync() == [.replace(path: JSONPointer("/rows/3"), value: ["id": "r2", "text": "changed"])])
        probe.send(.move(id: "r2", to: 0))
        #expect(try probe.sync() == [.move(from: JSONPointer("/rows/3"), path: JSONPointer("/rows/0"))])
        probe.send(.remove(id: "r0"))
        #expect(try probe.sync() == [.remove(path: JSONPointer("/rows/1"))])
        #expect(probe.ids == ["r2", "new", "r1"])
        #expect(probe.failures.isEmpty)
    }

    @Test("Unknown ids and out-of-range indices: nothing lost, nothing crashes")
    func forgivingChanges() throws {
        let probe = KeyedProbe()
        probe.send(.reset(Self.items(2)))
        try probe.sync()
        probe.send(.remove(id: "nope"), .move(id: "nope", to: 0))
        #expect(try probe.sync().isEmpty)
        probe.send(.update(Item(id: "late", text: "")))
        #expect(try probe.sync() == [.add(path: JSONPointer("/rows/2"), value: ["id": "late", "text": ""])])
        probe.send(.insert(Item(id: "first", text: ""), at: -5), .insert(Item(id: "last", text: ""), at: 99))
        try probe.sync()
        probe.send(.move(id: "first", to: 1_000))
        try probe.sync()
        #expect(probe.ids == ["r0", "r1", "late", "last", "first"])
        probe.send(.insert(Item(id: "r0", text: "again"), at: 3))
        #expect(try probe.sync() == [.replace(path: JSONPointer("/rows/0"), value: ["id": "r0", "text": "again"])])
        probe.send(.update(Item(id: "r0", text: "again")))
        #expect(try probe.sync().isEmpty, "an unchanged row sends nothing")
        #expect(probe.failures.isEmpty)
    }

    @Test("A row JSON cannot hold, or whose id member is not its id, is refused; the collection keeps its row")
    func refusedRows() throws {
        struct Bad: ViewValue, Identifiable {
            let id: String
            let viewJSON: JSON
        }
        let stage = Stage(name: "list")
        let changes = PassthroughSubject<RowChange<Bad>, Never>()
        stage.bind(changes, to: "rows")
        let host = RecordingStageHost()
        stage.host = host
        let failures = { host.failures }
        changes.send(.reset([Bad(id: "a", viewJSON: ["id": "a", "n": 1])]))
        changes.send(.update(Bad(id: "a", viewJSON: ["id": "a", "n": .double(.nan)])))
        changes.send(.insert(Bad(id: "b", viewJSON: ["id": "other"])))
        changes.send(.insert(Bad(id: "c", viewJSON: "not an object")))
        #expect(stage.document == ["rows": [["id": "a", "n": 1]]])
        #expect(failures().count == 3)
        #expect(failures().allSatisfy { $0.contains(#"keyed slot "rows" of stage "list""#) })
        #expect(failures()[0].contains(#"row "a""#) && failures()[1].contains(#"row "b""#))
    }

    @Test("A reset repeating an id keeps the later row where the first stood, and says so")
    func duplicateIDs() throws {
        let probe = KeyedProbe()
        probe.send(.reset([Item(id: "a", text: "1"), Item(id: "b", text: ""), Item(id: "a", text: "2")]))
        #expect(
            try probe.sync() == [
                .add(path: JSONPointer("/rows"), value: [["id": "a", "text": "2"], ["id": "b", "text": ""]])
            ])
        #expect(
            probe.failures == [
                #"keyed slot "rows" of stage "list" got two rows with the id "a"; the later one is kept, where the first stood"#
            ])
    }

    @Test("One field of row 5,000 of 10,000 is one replace; a value bound to the slot is ignored")
    func largeCollection() throws {
        let probe = KeyedProbe()
        let rows = Self.items(10_000)
        probe.send(.reset(rows))
        try probe.sync()
        probe.changeCalls = 0
        probe.send(.update(Item(id: "r4999", text: "raised")))
        #expect(probe.changeCalls == 1)
        #expect(
            try probe.sync() == [.replace(path: JSONPointer("/rows/4999"), value: ["id": "r4999", "text": "raised"])])
        let values = PassthroughSubject<String, Never>()
        probe.stage.bind(values, to: "rows")
        values.send("a plain value")
        #expect(probe.stage.document["rows"]?.arrayValue?.count == 10_000)
    }

    @Test("Changes are bounded while unsent: past 128 the slot goes whole, once; a mount forgets them")
    func boundedPending() throws {
        let probe = KeyedProbe()
        probe.send(.reset(Self.items(300)))
        try probe.sync()
        for index in 0..<128 { probe.send(.update(Item(id: "r\(index)", text: "x"))) }
        #expect(try probe.sync().count == 128)
        for index in 0..<300 { probe.send(.update(Item(id: "r\(index)", text: "y"))) }
        let operations = try probe.sync()
        #expect(
            operations.count == 1 && operations.first?.name == "add" && operations.first?.path.description == "/rows")
        #expect(try probe.sync().isEmpty)
        probe.send(.remove(id: "r1"))
        probe.stage.discardRowOperations()
        #expect(probe.stage.takeRowOperations().isEmpty)
    }

    @Test("A cancelled stage takes no more row changes")
    func cancelled() {
        let probe = KeyedProbe()
        probe.stage.cancel()
        probe.send(.insert(Item(id: "a", text: "")))
        #expect(probe.stage.document["rows"] == [])
    }
}

@Suite struct RowChangeDiffTests {
    static func apply(_ changes: [RowChange<Item>], to rows: [Item]) throws -> JSON {
        let probe = KeyedProbe()
        probe.send(.reset(rows))
        try probe.sync()
        probe.changes.send(changes)
        try probe.sync()
        return probe.stage.document["rows"] ?? .null
    }

    @Test("Row changes between random lists turn the old one into the new one, with the fewest moves")
    func randomLists() throws {
        var random = SeededGenerator(seed: 11)
        for round in 0..<300 {
            let old = (0..<Int.random(in: 0...30, using: &random)).map {
                Item(id: "r\($0)", text: String(Int.random(in: 0...3, using: &random)))
            }
            var new = old.filter { _ in Int.random(in: 0..<5, using: &random) > 0 }
            if Bool.random(using: &random) {
                new.shuffle(using: &random)
            } else if new.count > 1 {
                new.swapAt(0, new.count - 1)
            }
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                new.insert(
                    Item(id: "n\(round)-\(new.count)", text: "new"), at: Int.random(in: 0...new.count, using: &random))
            }
            for index in new.indices where Int.random(in: 0..<4, using: &random) == 0 { new[index].text += "!" }
            let changes = RowChange.changes(from: old, to: new)
            #expect(try Self.apply(changes, to: old) == new.viewJSON, "round \(round)")
            #expect(changes.count <= RowChange<Item>.maximumChanges || changes.count == 1)
        }
    }

    @Test("One changed row is one update; one row moved is one move; an equal list is nothing")
    func smallChanges() {
        let rows = KeyedCollectionTests.items(1_000)
        var changed = rows
        changed[500].text = "bid"
        #expect(RowChange.changes(from: rows, to: changed) == [.update(changed[500])])
        var moved = rows
        moved.insert(moved.remove(at: 10), at: 900)
        #expect(RowChange.changes(from: rows, to: moved) == [.move(id: "r10", to: 900)])
        #expect(RowChange.changes(from: rows, to: rows).isEmpty)
    }

    @Test("The same ids in the same order: the updates of the rows that differ, in order; past the limit a reset")
    func updatesInPlace() throws {
        let rows = KeyedCollectionTests.items(300)
        var changed = rows
        for index in stride(from: 3, to: 300, by: 7) { changed[index].text += "!" }
        let changes = RowChange.changes(from: rows, to: changed)
        #expect(changes == stride(from: 3, to: 300, by: 7).map { .update(changed[$0]) })
        #expect(try Self.apply(changes, to: rows) == changed.viewJSON)
        var many = rows
        for index in 0...RowChange<Item>.maximumChanges { many[index].text += "!" }
        #expect(RowChange.changes(from: rows, to: many) == [.reset(many)])
        var renamed = changed
        renamed[299] = Item(id: "other", text: "renamed")
        #expect(try Self.apply(RowChange.changes(from: rows, to: renamed), to: rows) == renamed.viewJSON)
    }

    @Test("A long reorder, or repeated ids, is one reset")
    func resets() {
        let rows = KeyedCollectionTests.items(1_000)
        #expect(RowChange.changes(from: rows, to: rows.reversed()) == [.reset(rows.reversed())])
        let twice = [rows[0], rows[0]]
        #expect(RowChange.changes(from: rows, to: twice) == [.reset(twice)])
    }

    @Test("rowChanges() resets first, then sends what changed, and nothing for an equal array")
    func publisherOperator() {
        let rows = CurrentValueSubject<[Item], Never>(KeyedCollectionTests.items(2))
        var received: [[RowChange<Item>]] = []
        let subscription = rows.rowChanges().sink { received.append($0) }
        rows.send(rows.value)
        rows.send([Item(id: "r1", text: ""), Item(id: "r0", text: "edited")])
        subscription.cancel()
        #expect(
            received == [
                [.reset(KeyedCollectionTests.items(2))],
                [.move(id: "r0", to: 1), .update(Item(id: "r0", text: "edited"))],
            ])
    }
}
