import Testing

@testable import FootlightJSON

@Suite struct JSONCodecTests {
    @Test("Values survive a write and a read, members in document order")
    func roundTrip() throws {
        let value: JSON = [
            "z": 1, "a": [true, false, nil, 2.5, "text"], "nested": ["k": ["deep": "é ✓ 𝄞"]], "empty": [:], "none": [],
        ]
        let text = try value.serialized()
        #expect(
            text == #"{"z":1,"a":[true,false,null,2.5,"text"],"nested":{"k":{"deep":"é ✓ 𝄞"}},"empty":{},"none":[]}"#)
        #expect(try JSON.parse(text) == value)
    }

    @Test(
        "Texts around and far past the writer's 2,048-byte scratch buffer are whole",
        arguments: [2045, 2046, 2047, 2048, 2049, 100_000])
    func longTexts(length: Int) throws {
        // Quotes around `length - 2` characters, the last one different: a cut shows.
        let value = JSON.string(String(repeating: "x", count: length - 3) + "z")
        let bytes = try value.serializedBytes()
        #expect(bytes.count == length)
        #expect(bytes.suffix(2) == [UInt8(ascii: "z"), UInt8(ascii: "\"")])
        #expect(try JSON.parse(bytes) == value)
        let nested: JSON = ["rows": .array(Array(repeating: value, count: 3))]
        #expect(try JSON.parse(nested.serializedBytes()) == nested)
    }

    @Test("Canonical form sorts keys, so member order does not change the text")
    func canonicalText() throws {
        let a = try JSON.parse(#"{"b":1,"a":{"d":2,"c":3}}"#)
        let b = try JSON.parse(#"{"a":{"c":3,"d":2},"b":1}"#)
        #expect(try a.serialized(.canonical) == b.serialized(.canonical))
        #expect(try a.serialized(.canonical) == #"{"a":{"c":3,"d":2},"b":1}"#)
    }

    @Test("Integers at the edges of Int64 stay exact; doubles round-trip")
    func numberEdges() throws {
        for number: Int64 in [.min, .max, 0, -1, (1 << 53) + 1] {
            #expect(try JSON.parse(JSON.int(number).serialized()) == .int(number))
        }
        for number in [Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, -0.0, 0.1, 1e-300, 123456.789] {
            let text = try JSON.double(number).serialized()
            guard case .double(let back) = try JSON.parse(text) else {
                Issue.record("\(text) did not read back as a double")
                continue
            }
            #expect(back.bitPattern == number.bitPattern, "\(number) wrote \(text)")
        }
        #expect(try JSON.double(1).serialized() == "1.0")
    }

    @Test("Integers beyond Int64 are rejected with a syntax error, not rounded")
    func integerOverflow() {
        let error = #expect(throws: JSONError.self) { try JSON.parse("9223372036854775808") }
        #expect(error?.kind == .syntax)
    }

    @Test("NaN and infinity cannot be written and say so")
    func nonFiniteNumbers() {
        for number in [Double.nan, .infinity, -.infinity] {
            let error = #expect(throws: JSONError.self) { try JSON.array([.double(number)]).serialized() }
            #expect(error?.kind == .unrepresentable)
            #expect(error?.description.contains("not a finite number") == true)
        }
    }

    @Test("Strings with NUL, control characters, quotes and non-ASCII survive")
    func awkwardStrings() throws {
        let text = "a\u{0}b\u{1}\u{1F}\"\\/\n\t\u{7F}\u{2028}é𝄞"
        let written = try JSON.string(text).serialized()
        #expect(written.contains("\\u0000"))
        #expect(try JSON.parse(written) == .string(text))
        #expect(try JSON.parse(#"["\u0000"]"#) == ["\u{0}"])
    }

    @Test("compactSize equals the length of the compact text")
    func compactSizeIsExact() throws {
        let values: [JSON] = [
            nil, true, false, 0, -7, .int(.min), 0.5, -1e300, 1e21, "", "é\u{1}\"\\\n", [], [:], [1, [2, [3]]],
            ["k": ["a": nil, "b": [1.25, "x"]], "": ""],
        ]
        for value in values {
            #expect(value.compactSize() == (try value.serializedBytes().count), "\(value)")
        }
    }

    @Test("Malformed text names its line, column and byte")
    func malformedText() {
        let error = #expect(throws: JSONError.self) { try JSON.parse("{\n  \"a\": tru\n}") }
        #expect(error?.kind == .syntax)
        #expect(error?.line == 2)
        #expect(error?.description.contains("line 2") == true)
    }

    @Test("Empty input, trailing garbage and a NUL after a value are rejected")
    func incompleteOrTrailingInput() {
        for text in ["", " ", "{} {}", "1 2", "[1]x"] {
            #expect(throws: JSONError.self, "\(text)") { try JSON.parse(text) }
        }
        let error = #expect(throws: JSONError.self) { try JSON.parse([0x31, 0x32, 0x00]) }
        #expect(error?.position == 2)
    }

    @Test("Nesting deeper than the limit is a typed error when reading and when writing")
    func depthLimit() throws {
        let limit = JSONLimits.maximumDepth
        let ok = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try JSON.parse(ok) }
        let deep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        let error = #expect(throws: JSONError.self) { try JSON.parse(deep) }
        #expect(error?.kind == .tooDeep)
        // Far past jansson's own limit of 2048: still an error, not a crash.
        let hostile = String(repeating: "[", count: 100_000)
        #expect(throws: JSONError.self) { try JSON.parse(hostile) }

        var built: JSON = 1
        for _ in 0...limit { built = [built] }
        let writeError = #expect(throws: JSONError.self) { try built.serialized() }
        #expect(writeError?.kind == .tooDeep)
        let strict = JSONReadOptions(maximumDepth: 3)
        #expect(try JSON.parse("[[[1]]]", options: strict) == [[[1]]])
        #expect(throws: JSONError.self) { try JSON.parse("[[[[1]]]]", options: strict) }
    }

    @Test("Keys equal under Unicode canonical equivalence are refused, not merged")
    func canonicallyEquivalentKeys() {
        // "é" precomposed and decomposed: distinct bytes for jansson, one key for Swift.
        let error = #expect(throws: JSONError.self) { try JSON.parse("{\"\u{E9}\":1,\"e\u{301}\":2}") }
        #expect(error?.kind == .duplicateKey)
    }

    @Test("Equality: numbers by value, objects ignore member order")
    func equality() {
        #expect(JSON.int(1) == JSON.double(1))
        #expect(JSON.int(1).hashValue == JSON.double(1).hashValue)
        #expect(JSON.int(1) != JSON.double(1.5))
        #expect(JSON.int(.max) != JSON.double(9.223372036854775807e18))
        #expect((["a": 1, "b": 2] as JSON) == (["b": 2, "a": 1] as JSON))
        #expect((["a": 1, "b": 2] as JSON).hashValue == (["b": 2, "a": 1] as JSON).hashValue)
        #expect(JSON.string("\u{E9}") != JSON.string("e\u{301}"))
        #expect(JSON.bool(true) != JSON.int(1))
    }

    @Test("Objects compare member by member in order, then by key from the first out of place")
    func memberOrder() {
        let row: JSON = ["id": "7", "title": "Dawn", "bid": 300, "bids": 2]
        // Same order, one value changed: unequal wherever the change sits.
        #expect(row != ["id": "7", "title": "Dawn", "bid": 350, "bids": 2])
        #expect(row != ["id": "7", "title": "Dawn", "bid": 300, "bids": 3])
        // Keys in step at first, then in another order: looked up by key.
        #expect(row == ["id": "7", "title": "Dawn", "bids": 2, "bid": 300])
        #expect(row != ["id": "7", "title": "Dawn", "bids": 300, "bid": 2])
        #expect(row != ["id": "7", "title": "Dawn", "bid": 300, "count": 2])
        #expect(row != ["id": "7", "title": "Dawn", "bid": 300])
        // Identity also keeps number representation, in either path.
        #expect(row.isIdentical(to: ["id": "7", "title": "Dawn", "bids": 2, "bid": 300]))
        #expect(row == ["id": "7", "title": "Dawn", "bid": 300.0, "bids": 2])
        #expect(!row.isIdentical(to: ["id": "7", "title": "Dawn", "bid": 300.0, "bids": 2]))
        #expect(!row.isIdentical(to: ["id": "7", "title": "Dawn", "bids": 2, "bid": 300.0]))
    }
}
