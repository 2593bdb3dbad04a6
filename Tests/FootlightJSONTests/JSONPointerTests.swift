import Testing

@testable import FootlightJSON

@Suite struct JSONPointerTests {
    /// RFC 6901 §5's example document.
    static let document: JSON = [
        "foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8,
    ]

    @Test(
        "RFC 6901 §5 examples resolve to their values",
        arguments: [
            ("", document), ("/foo", ["bar", "baz"]), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1), ("/c%d", 2),
            ("/e^f", 3), ("/g|h", 4), ("/i\\j", 5), ("/k\"l", 6), ("/ ", 7), ("/m~0n", 8),
        ] as [(String, JSON)])
    func rfcExamples(_ text: String, _ expected: JSON) throws {
        let pointer = try JSONPointer(text)
        #expect(Self.document.value(at: pointer) == expected)
        #expect(pointer.description == text, "escaping must round-trip")
    }

    @Test("~01 unescapes to ~1, not to /")
    func escapeOrder() throws {
        #expect(try JSONPointer("/~01").tokens == ["~1"])
        #expect(JSONPointer(tokens: ["~1"]).description == "/~01")
        #expect(JSONPointer(tokens: ["a/b", "m~n", ""]).description == "/a~1b/m~0n/")
    }

    @Test("Malformed pointers are typed errors with the reason", arguments: ["a", "/~", "/~2", "/a~"])
    func malformed(_ text: String) {
        let error = #expect(throws: JSONPointerError.self) { try JSONPointer(text) }
        #expect(error?.pointer == text)
        #expect(error?.description.contains("invalid JSON pointer") == true)
    }

    @Test("Array indices: no leading zeros, no signs, no overflow, '-' only past the end")
    func arrayIndices() {
        #expect(JSONPointer.arrayIndex("0", count: 2, allowEnd: false) == 0)
        #expect(JSONPointer.arrayIndex("1", count: 2, allowEnd: false) == 1)
        #expect(JSONPointer.arrayIndex("2", count: 2, allowEnd: false) == nil)
        #expect(JSONPointer.arrayIndex("2", count: 2, allowEnd: true) == 2)
        #expect(JSONPointer.arrayIndex("-", count: 2, allowEnd: true) == 2)
        #expect(JSONPointer.arrayIndex("-", count: 2, allowEnd: false) == nil)
        for bad in ["01", "+1", "-1", "1.0", "", " 1", "99999999999999999999999", "١"] {
            #expect(JSONPointer.arrayIndex(bad, count: 10, allowEnd: true) == nil, "\(bad)")
        }
    }

    @Test("Missing paths resolve to nil, never trap")
    func missing() throws {
        #expect(Self.document.value(at: try JSONPointer("/foo/2")) == nil)
        #expect(Self.document.value(at: try JSONPointer("/foo/bar")) == nil)
        #expect(Self.document.value(at: try JSONPointer("/nope/x")) == nil)
        #expect(Self.document.value(at: try JSONPointer("/a~1b/x")) == nil)
    }
}
