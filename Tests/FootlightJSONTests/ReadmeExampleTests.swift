import FootlightJSON
import Testing

/// The example in README.md, kept true by running it.
@Suite struct ReadmeExampleTests {
    @Test("The README's diff example prints what the README says")
    func readmeExample() throws {
        let before = try JSON.parse(
            #"{"lots":[{"id":"a","title":"Blue study","bid":"$10"},{"id":"b","title":"Red study","bid":"$20"}]}"#)
        let after: JSON = [
            "lots": [
                ["id": "b", "title": "Red study", "bid": "$20"], ["id": "a", "title": "Blue study", "bid": "$15"],
            ]
        ]
        let patch = JSONPatch.diff(from: before, to: after)
        #expect(
            try patch.json.serialized()
                == #"[{"op":"move","from":"/lots/0","path":"/lots/1"},{"op":"replace","path":"/lots/1/bid","value":"$15"}]"#
        )
        #expect(try patch.applied(to: before) == after)
    }
}
