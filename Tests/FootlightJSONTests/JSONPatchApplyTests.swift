import Testing

@testable import FootlightJSON

@Suite struct JSONPatchApplyTests {
    static let document: JSON = ["items": [["id": "a", "n": 1], ["id": "b", "n": 2]], "title": "Lots"]

    func patch(_ text: String) throws -> JSONPatch {
        try JSONPatch(json: JSON.parse(text))
    }

    @Test("A failing patch leaves the document exactly as it was")
    func atomic() throws {
        var document = Self.document
        let patch = try patch(
            #"[{"op":"replace","path":"/title","value":"Changed"},{"op":"add","path":"/items/-","value":1},{"op":"remove","path":"/items/7"}]"#
        )
        let error = #expect(throws: PatchError.self) { try patch.apply(to: &document) }
        #expect(document == Self.document)
        #expect(error?.operationIndex == 2)
        #expect(error?.path == "/items/7")
        #expect(error?.kind == .pathNotFound)
        #expect(error?.description == #"patch operation 2 (remove at "/items/7"): no element "7" in an array of 3"#)
    }

    @Test("Errors name the operation index and path for every failure class")
    func errorKinds() throws {
        let cases: [(String, PatchError.Kind, Int, String?)] = [
            (#"[{"op":"test","path":"/title","value":"x"}]"#, .testFailed, 0, "/title"),
            (#"[{"op":"add","path":"/title/x","value":1}]"#, .invalidTarget, 0, "/title/x"),
            (#"[{"op":"add","path":"/items/9","value":1}]"#, .invalidTarget, 0, "/items/9"),
            (#"[{"op":"add","path":"/missing/x","value":1}]"#, .pathNotFound, 0, "/missing/x"),
            (#"[{"op":"replace","path":"/nope","value":1}]"#, .pathNotFound, 0, "/nope"),
            (#"[{"op":"move","from":"/items","path":"/items/0"}]"#, .invalidTarget, 0, "/items/0"),
            (#"[{"op":"copy","from":"/nope","path":"/x"}]"#, .pathNotFound, 0, "/nope"),
            (#"[{"op":"remove","path":""}]"#, .invalidTarget, 0, ""),
            (#"[{"op":"test","path":"/title","value":"Lots"},{"op":"jump","path":"/a"}]"#, .malformed, 1, "/a"),
            (#"[{"op":"add","path":"/a"}]"#, .malformed, 0, "/a"),
            (#"[{"op":"add","path":"a","value":1}]"#, .invalidPointer, 0, nil),
            (#"[{"path":"/a"}]"#, .malformed, 0, nil),
            (#"[{"op":1,"path":"/a"}]"#, .malformed, 0, nil),
            (#"[{"op":"move","path":"/a"}]"#, .malformed, 0, nil),
            (#"[17]"#, .malformed, 0, nil),
            (#"{"op":"add"}"#, .malformed, 0, nil),
        ]
        for (text, kind, index, path) in cases {
            let error = #expect(throws: PatchError.self, "\(text)") {
                try patch(text).applied(to: Self.document)
            }
            #expect(error?.kind == kind, "\(text): \(String(describing: error))")
            #expect(error?.operationIndex == index, "\(text)")
            if let path { #expect(error?.path == path, "\(text): \(String(describing: error))") }
            #expect(error?.description.hasPrefix("patch operation \(index)") == true)
        }
    }

    @Test("All six operations, including moves between arrays and into the root")
    func operations() throws {
        let result = try patch(
            #"""
            [{"op":"add","path":"/items/1","value":{"id":"c","n":3}},
             {"op":"move","from":"/items/0","path":"/items/-"},
             {"op":"copy","from":"/title","path":"/subtitle"},
             {"op":"replace","path":"/items/0/n","value":30},
             {"op":"remove","path":"/title"},
             {"op":"test","path":"/items/2/id","value":"a"}]
            """#
        ).applied(to: Self.document)
        #expect(
            result == [
                "items": [["id": "c", "n": 30], ["id": "b", "n": 2], ["id": "a", "n": 1]], "subtitle": "Lots",
            ])
        #expect(try patch(#"[{"op":"replace","path":"","value":[1]}]"#).applied(to: Self.document) == [1])
        #expect(try patch(#"[{"op":"add","path":"","value":"x"}]"#).applied(to: Self.document) == "x")
    }

    @Test("The wire form reads back to the same patch")
    func wireForm() throws {
        let patch = JSONPatch([
            .add(path: JSONPointer(tokens: ["a/b"]), value: [1]), .remove(path: JSONPointer(tokens: ["x", "0"])),
            .replace(path: .root, value: nil),
            .move(from: JSONPointer(tokens: ["m~n"]), path: JSONPointer(tokens: ["y"])),
            .copy(from: JSONPointer(tokens: ["y"]), path: JSONPointer(tokens: ["z"])), .test(path: .root, value: "v"),
        ])
        let text = try patch.json.serialized()
        #expect(text.hasPrefix(#"[{"op":"add","path":"/a~1b","value":[1]},{"op":"remove","path":"/x/0"}"#))
        #expect(try JSONPatch(json: JSON.parse(text)) == patch)
        #expect(patch.operations.reduce(1) { $0 + $1.compactSize + 1 } == text.utf8.count)
    }
}
