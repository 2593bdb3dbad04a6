import Testing

@testable import FootlightJSON

@Suite("Diffs of values many documents share, derived once")
struct SharedDiffsTests {
    /// A row as a shared service makes it: once, then handed to every document.
    static func row(bid: Int64, bids: Int64) -> JSON {
        [
            "id": "lot-3", "title": "Harbour at dusk", "artist": "A. Wróbel", "currentBid": .int(bid),
            "bidCount": .string("\(bids) bids"), "closed": false, "image": ["src": "/art/3.svg", "alt": "A harbour"],
        ]
    }

    /// One session's document around `row`: members of its own, the row deeper down.
    static func document(session: Int, row: JSON) -> JSON {
        ["session": .int(Int64(session)), "card": ["lot": row, "selected": .bool(session % 2 == 0)]]
    }

    static func text(_ patch: JSONPatch) throws -> [UInt8] {
        try patch.json.serializedBytes()
    }

    @Test("A pair met in many documents is diffed twice, then handed out as the same operations")
    func handedOut() throws {
        let sharing = SharedDiffs()
        let (old, new) = (Self.row(bid: 1200, bids: 3), Self.row(bid: 1250, bids: 4))
        var patches: [JSONPatch] = []
        for session in 0..<6 {
            let (a, b) = (Self.document(session: session, row: old), Self.document(session: session, row: new))
            let patch = JSONPatch.diff(from: a, to: b, options: DiffOptions(), sharing: sharing)
            let fresh = JSONPatch.diff(from: a, to: b, options: DiffOptions(), sharing: nil)
            #expect(try Self.text(patch) == Self.text(fresh))
            #expect(try patch.applied(to: a) == b)
            patches.append(patch)
        }
        #expect(patches[0].operations.map(\.path.description) == ["/card/lot/currentBid", "/card/lot/bidCount"])
        // Sessions 0 and 1 diff the pair (the second keeps it); 2 to 5 are handed it.
        #expect(sharing.statistics.hits == 4)
        #expect(!sharing.keeps(patches[0].operations))
        for patch in patches[2...] {
            #expect(sharing.keeps(patch.operations), "the kept array itself, not a copy")
            #expect(SharedDiffs.identity(of: patch.operations) == SharedDiffs.identity(of: patches[2].operations))
        }
    }

    @Test("The same pair at another place, or with another identity key, is diffed there")
    func place() throws {
        let sharing = SharedDiffs()
        // Keyed by "id", two rows swap (and one changes); keyed by "k", they stay and change.
        let title = JSON.string(String(repeating: "t", count: 60))
        let old: JSON = [["id": "a", "k": "x", "n": 1, "t": title], ["id": "b", "k": "y", "n": 2, "t": title]]
        let new: JSON = [["id": "b", "k": "x", "n": 2, "t": title], ["id": "a", "k": "y", "n": 5, "t": title]]
        // A long token makes one replace cheaper than several operations under it.
        let long = String(repeating: "x", count: 200)
        let places: [(String, String)] = [("short", "id"), (long, "id"), ("short", "k"), ("short", "id")]
        for _ in 0..<3 {
            for (token, key) in places {
                let (a, b): (JSON, JSON) = ([token: old], [token: new])
                let options = DiffOptions(identityKey: key)
                let shared = JSONPatch.diff(from: a, to: b, options: options, sharing: sharing)
                let fresh = JSONPatch.diff(from: a, to: b, options: options, sharing: nil)
                #expect(try Self.text(shared) == Self.text(fresh), "at /\(token.prefix(8)) keyed by \(key)")
                #expect(try shared.applied(to: a) == b)
            }
        }
        #expect(sharing.statistics.hits > 0)
        // The same rows in new storage: kept with no operations, and not a kept list.
        let equal = try JSON.parse(old.serialized())
        for _ in 0..<3 {
            let patch = JSONPatch.diff(
                from: ["short": old], to: ["short": equal], options: DiffOptions(), sharing: sharing)
            #expect(patch.isEmpty && !sharing.keeps(patch.operations))
        }
        let short = JSONPatch.diff(from: ["short": old], to: ["short": new], options: DiffOptions(), sharing: nil)
        let far = JSONPatch.diff(from: [long: old], to: [long: new], options: DiffOptions(), sharing: nil)
        #expect(short.operations.count > 1 && far.operations.count == 1, "the places differ in kind, not only paths")
    }

    @Test("Values that come and go at the same place are never taken for one another")
    func releasedValues() throws {
        // Pairs made and dropped in turn: their buffers' addresses come back for the next
        // ones. Only a kept pair's values are alive, so only they can match.
        let sharing = SharedDiffs(capacity: 2)
        for round in 0..<300 {
            let old = Self.row(bid: Int64(round), bids: Int64(round % 7))
            let new = Self.row(bid: Int64(round + 1), bids: Int64(round % 5))
            for session in 0..<3 {
                let (a, b) = (Self.document(session: session, row: old), Self.document(session: session, row: new))
                let patch = JSONPatch.diff(from: a, to: b, options: DiffOptions(), sharing: sharing)
                #expect(try patch.applied(to: a) == b, "round \(round), session \(session)")
            }
        }
        #expect(sharing.statistics.hits >= 300)
    }

    @Test("Random pairs diffed through kept diffs give the same text as diffed afresh")
    func randomPairs() throws {
        let sharing = SharedDiffs(capacity: 4)
        var documents = RandomDocuments(seed: 20_261_125)
        for index in 0..<600 {
            let a = documents.document()
            let b = index % 4 == 3 ? documents.value(depth: 0) : documents.edit(a)
            // The same pair (the same storage) in six documents, at two places.
            for (session, token) in [(0, "x"), (1, "x"), (2, "x"), (3, "y~/"), (4, "y~/"), (5, "y~/")] {
                let (wrappedA, wrappedB): (JSON, JSON) = (
                    ["n": .int(Int64(session)), token: a], ["n": .int(Int64(session)), token: b]
                )
                let shared = JSONPatch.diff(from: wrappedA, to: wrappedB, options: DiffOptions(), sharing: sharing)
                let fresh = JSONPatch.diff(from: wrappedA, to: wrappedB, options: DiffOptions(), sharing: nil)
                #expect(try Self.text(shared) == Self.text(fresh), "pair \(index), session \(session)")
            }
        }
        #expect(sharing.statistics.hits > 300)
    }

    @Test("A document's root is never kept: a session's own document is not met again")
    func roots() throws {
        let sharing = SharedDiffs()
        let (old, new): (JSON, JSON) = (["count": 1, "items": ["a"]], ["count": 2, "items": ["a", "b"]])
        for _ in 0..<4 { _ = JSONPatch.diff(from: old, to: new, options: DiffOptions(), sharing: sharing) }
        // Only the nested pair ("items") was looked up: missed twice, then kept.
        #expect(sharing.statistics == (hits: 2, misses: 2))
    }

    @Test("It keeps at most its capacity of pairs, the most recent")
    func bounded() throws {
        let sharing = SharedDiffs(capacity: 2)
        // Flat objects under a root of their own: one pair per diff (roots are not kept).
        let pairs: [(JSON, JSON)] = (0..<3).map {
            (["id": "r", "bid": .int(Int64($0))], ["id": "r", "bid": .int(Int64($0) + 1)])
        }
        func diff(_ pair: (JSON, JSON)) -> JSONPatch {
            JSONPatch.diff(from: ["r": pair.0], to: ["r": pair.1], options: DiffOptions(), sharing: sharing)
        }
        for pair in pairs { _ = (diff(pair), diff(pair)) }  // each kept at its second diff
        let hits = sharing.statistics.hits
        _ = diff(pairs[2])
        _ = diff(pairs[1])
        #expect(sharing.statistics.hits == hits + 2)
        _ = diff(pairs[0])
        #expect(sharing.statistics.hits == hits + 2, "the oldest pair was let go")
    }
}
