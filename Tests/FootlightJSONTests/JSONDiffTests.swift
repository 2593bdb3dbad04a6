import FootlightTesting
import Testing

@testable import FootlightJSON

@Suite struct JSONDiffTests {
    /// Rows shaped like the demo's listing: a lot with display-ready strings.
    static func rows(_ count: Int, change: (Int, inout JSONObject) -> Void = { _, _ in }) -> [JSON] {
        (0..<count).map { index in
            var row: JSONObject = [
                "id": .string("lot-\(index)"), "title": .string("Lot \(index): a study in blue"),
                "artist": "Anonymous, 19th century", "bid": .string("$\(index * 10 + 100).00"),
                "bids": .int(Int64(index % 7)), "timeLeft": "2 hours, 5 minutes",
            ]
            change(index, &row)
            return .object(row)
        }
    }

    func check(_ a: JSON, _ b: JSON, options: DiffOptions = DiffOptions()) throws -> JSONPatch {
        let patch = JSONPatch.diff(from: a, to: b, options: options)
        let result = try patch.applied(to: a)
        #expect(try result.serialized(.canonical) == b.serialized(.canonical))
        return patch
    }

    @Test("Reversing a 1,000-row keyed list gives only moves, fewer bytes than replacing it")
    func reverseThousandRows() throws {
        let a: JSON = ["rows": .array(Self.rows(1000))]
        let b: JSON = ["rows": .array(Self.rows(1000).reversed())]
        let patch = try check(a, b)
        #expect(patch.operations.count == 999)
        #expect(patch.operations.allSatisfy { $0.name == "move" })
        let patchBytes = try patch.json.serializedBytes().count
        let replaceBytes = try JSONPatch([.replace(path: JSONPointer(tokens: ["rows"]), value: b["rows"]!)]).json
            .serializedBytes().count
        #expect(patchBytes < replaceBytes, "\(patchBytes) bytes of moves vs \(replaceBytes) bytes of replace")
    }

    @Test("Changing one field in row 5,000 of 10,000 rows gives exactly one op at that row")
    func oneFieldInTenThousandRows() throws {
        let a: JSON = ["rows": .array(Self.rows(10_000))]
        let b: JSON = ["rows": .array(Self.rows(10_000) { index, row in if index == 5000 { row["bids"] = 99 } })]
        let patch = try check(a, b)
        #expect(patch.operations == [.replace(path: try JSONPointer("/rows/5000/bids"), value: 99)])
    }

    /// Text long enough that replacing a value holding it costs more than a few ops.
    static let padding = JSON.string(String(repeating: "Footlight ", count: 30))

    @Test("Nested objects give deep paths; scalars replace; removed keys remove; new keys add")
    func objects() throws {
        let p = Self.padding
        let a: JSON = [
            "user": ["name": "Ada", "address": ["city": "London", "zip": "N1", "p": p], "p": p], "gone": true, "p": p,
        ]
        let b: JSON = [
            "user": ["name": "Ada", "address": ["city": "Paris", "zip": "N1", "p": p], "p": p], "new": [1], "p": p,
        ]
        let patch = try check(a, b)
        #expect(
            patch.operations == [
                .remove(path: try JSONPointer("/gone")),
                .replace(path: try JSONPointer("/user/address/city"), value: "Paris"),
                .add(path: try JSONPointer("/new"), value: [1]),
            ])
    }

    @Test("Keys needing escapes appear escaped in paths")
    func escapedKeys() throws {
        let patch = try check(["a/b": ["m~n": 1]], ["a/b": ["m~n": 2]])
        #expect(try patch.json.serialized() == #"[{"op":"replace","path":"/a~1b/m~0n","value":2}]"#)
    }

    @Test("One inserted row is one add; one removed row one remove; a row moved to the end one move")
    func keyedEdits() throws {
        let base = Self.rows(20)
        var inserted = base
        inserted.insert(["id": "new", "title": "New", "bids": 0], at: 7)
        #expect(
            try check(.array(base), .array(inserted)).operations == [
                .add(path: try JSONPointer("/7"), value: inserted[7])
            ])

        var removed = base
        removed.remove(at: 3)
        #expect(try check(.array(base), .array(removed)).operations == [.remove(path: try JSONPointer("/3"))])

        var moved = base
        moved.append(moved.removeFirst())
        #expect(
            try check(.array(base), .array(moved)).operations == [
                .move(from: try JSONPointer("/0"), path: try JSONPointer("/19"))
            ])
    }

    @Test("A moved row that also changed gives a move and a change at its final index")
    func moveAndChange() throws {
        let base = Self.rows(10)
        var changed = base
        var row = changed.remove(at: 2).objectValue!
        row["title"] = "Renamed"
        changed.insert(.object(row), at: 8)
        let patch = try check(.array(base), .array(changed))
        #expect(
            patch.operations == [
                .move(from: try JSONPointer("/2"), path: try JSONPointer("/8")),
                .replace(path: try JSONPointer("/8/title"), value: "Renamed"),
            ])
    }

    @Test("The identity key is configurable, and integer ids work")
    func identityKey() throws {
        let a: JSON = [["key": 1, "v": "a"], ["key": 2, "v": "b"], ["key": 3, "v": "c"]]
        let b: JSON = [["key": 3, "v": "c"], ["key": 1, "v": "a"], ["key": 2, "v": "b"]]
        let patch = try check(a, b, options: DiffOptions(identityKey: "key"))
        #expect(patch.operations == [.move(from: try JSONPointer("/2"), path: try JSONPointer("/0"))])
        // With the default key these rows have no identity: element-wise changes instead.
        #expect(try check(a, b).operations.allSatisfy { $0.name != "move" })
    }

    @Test("Duplicate ids or non-object rows fall back to the plain array diff")
    func notKeyed() throws {
        let a: JSON = [["id": 1, "v": "a"], ["id": 1, "v": "b"]]
        let b: JSON = [["id": 1, "v": "b"], ["id": 1, "v": "a"]]
        #expect(try check(a, b).operations.allSatisfy { $0.name == "replace" })
        _ = try check([["id": 1], 2, "x"], [2, ["id": 1]])
    }

    @Test("Plain arrays keep common prefix and suffix")
    func plainArrays() throws {
        let p = Self.padding
        #expect(try check([p, 1, 2, 3, 4], [p, 1, 2, 9, 3, 4]).operations.count <= 3)
        #expect(
            try check([p, 1, 2, 3, 4, 5], [p, 1, 5]).operations == [
                .remove(path: try JSONPointer("/4")), .remove(path: try JSONPointer("/3")),
                .remove(path: try JSONPointer("/2")),
            ])
        #expect(
            try check([p, 1, 2], [p, 1, 2, 3, 4]).operations == [
                .add(path: try JSONPointer("/3"), value: 3), .add(path: try JSONPointer("/4"), value: 4),
            ])
    }

    @Test("Number representation is kept: 1 and 1.0 differ, 0.0 and -0.0 differ")
    func numberRepresentation() throws {
        #expect(try check(["n": 1], ["n": 1.0]).operations.count == 1)
        #expect(try check(["n": 0.0], ["n": .double(-0.0)]).operations.count == 1)
        #expect(try check(["n": 1], ["n": 1]).operations.isEmpty)
    }

    @Test("When the ops would be larger, a single replace of that value is sent instead")
    func replaceWhenSmaller() throws {
        let a: JSON = ["list": [1, 2, 3, 4, 5, 6, 7, 8], "keep": "x"]
        let b: JSON = ["list": ["a", "b", "c", "d", "e", "f", "g", "h"], "keep": "x"]
        let patch = try check(a, b)
        #expect(patch.operations == [.replace(path: try JSONPointer("/list"), value: b["list"]!)])
        let whole = try check([1, 2], ["x": [3]])
        #expect(whole.operations == [.replace(path: .root, value: ["x": [3]])])
    }

    @Test("Equal documents give an empty patch; key order alone is not a change")
    func noChange() throws {
        #expect(try check(["a": 1, "b": [1, 2]], ["b": [1, 2], "a": 1]).isEmpty)
    }

    @Test("The longest increasing subsequence is as long as a brute-force DP finds")
    func longestIncreasingSubsequence() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<300 {
            let values = Array((0..<Int.random(in: 0...30, using: &random))).shuffled(using: &random)
            let members = LongestIncreasingSubsequence.members(of: values)
            var best = [Int](repeating: 1, count: values.count)
            for i in values.indices {
                for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
            }
            #expect(members.count == (best.max() ?? 0))
            let kept = values.filter(members.contains)
            #expect(kept == kept.sorted())
        }
    }
}

@Suite struct JSONSharedStorageTests {
    static let row: JSON = ["id": "lot-1", "title": "Harbour at Dusk", "bid": "$1,200.00"]

    @Test("Copies of one container share storage; equal containers built apart do not")
    func sharing() {
        let copy = Self.row
        #expect(copy.sharesStorage(with: Self.row))
        let rebuilt: JSON = ["id": "lot-1", "title": "Harbour at Dusk", "bid": "$1,200.00"]
        #expect(rebuilt == Self.row)
        #expect(!rebuilt.sharesStorage(with: Self.row))
        #expect(!JSON.string("a").sharesStorage(with: .string("a")))
        var changed = copy
        if case .object(var members) = changed {
            members["bid"] = "$1,300.00"
            changed = .object(members)
        }
        #expect(!changed.sharesStorage(with: Self.row))
        #expect(copy.sharesStorage(with: Self.row))
    }

    @Test("Shared rows diff to nothing; a changed row among shared ones gives ops at its index only")
    func diffSkipsSharedRows() throws {
        let rows = JSONDiffTests.rows(50)
        var changed = rows
        changed[7] = JSONDiffTests.rows(8) { _, row in row["bid"] = "$1.00" }[7]  // built apart
        let patch = JSONPatch.diff(from: ["rows": .array(rows)], to: ["rows": .array(changed)])
        #expect(patch.operations == [.replace(path: try JSONPointer("/rows/7/bid"), value: "$1.00")])
        #expect(JSONPatch.diff(from: ["rows": .array(rows)], to: ["rows": .array(Array(rows))]).isEmpty)
    }

    @Test("Same-order rows with one row replaced by another id still give remove and add")
    func fastPathKeepsIdentity() throws {
        let rows = JSONDiffTests.rows(5)
        var changed = rows
        changed[2] = JSONDiffTests.rows(6)[5]
        let patch = JSONPatch.diff(from: .array(rows), to: .array(changed))
        #expect(
            patch.operations == [
                .remove(path: try JSONPointer("/2")), .add(path: try JSONPointer("/2"), value: changed[2]),
            ])
    }
}
