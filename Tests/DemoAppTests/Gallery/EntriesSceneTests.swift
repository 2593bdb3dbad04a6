import Footlight
import FootlightTesting
import Gallery
import Testing

/// The gallery's quick entries: the server's side of a submit that empties its field.
@Suite struct EntriesSceneTests {
    @Test("A submit adds the entry with the field's slot already empty; what is typed next is the next entry's")
    func submitEmptiesTheField() {
        let tester = SceneTester(EntriesScene())
        let stage = "entries"
        tester.send("draft", to: stage, value: "Milk")
        tester.expect(stage, ["draft": "Milk"])
        tester.send("add", to: stage, value: ["title": "Milk"])
        tester.expect(stage, ["draft": "", "entries": [["id": "entry-1", "title": "Milk"]]])
        tester.send("draft", to: stage, value: "Eggs")
        tester.expect(stage, ["draft": "Eggs"])
        tester.send("add", to: stage, value: ["title": "Eggs"])
        tester.expect(
            stage,
            ["draft": "", "entries": [["id": "entry-1", "title": "Milk"], ["id": "entry-2", "title": "Eggs"]]])
    }
}
