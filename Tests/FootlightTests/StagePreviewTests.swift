import Footlight
import FootlightJSON
import FootlightTesting
import Testing

@Suite struct StagePreviewTests {
    let previews = [
        StagePreview("card", template: "card", document: ["title": "Hello", "count": 3, "busy": false]),
        StagePreview("card-busy", template: "card", document: ["title": "Hello", "busy": true]),
        StagePreview("dialog", template: "dialog", document: ["message": "Sure?"], modal: true),
    ]

    @Test("Each preview shows at /previews/<name> with exactly its document, at the root or as a modal")
    func shown() {
        let card = SceneTester(StagePreview.entry(previews), path: "/previews/card")
        #expect(card.stageIDs == ["card"])
        #expect(card.document("card") == ["title": "Hello", "count": 3, "busy": false])
        card.finish()
        let busy = SceneTester(StagePreview.entry(previews), path: "/previews/card-busy?x=1")
        #expect(busy.document("card") == ["title": "Hello", "busy": true])
        let dialog = SceneTester(StagePreview.entry(previews), path: "/previews/dialog")
        #expect(dialog.stageIDs == ["dialog-1"])
        #expect(dialog.document("dialog-1") == ["message": "Sure?"])
    }

    @Test("A path that names no preview shows not-found; an event to a preview is refused, and nothing changes")
    func unknown() {
        for path in ["/", "/previews", "/previews/nope", "/previews/card/more", "/other/card"] {
            let tester = SceneTester(StagePreview.entry(previews), path: path)
            #expect(tester.stageIDs == ["not-found"], "\(path)")
        }
        let card = SceneTester(StagePreview.entry(previews), path: "/previews/card")
        #expect(card.send("increment", to: "card")?.kind == .unknownEvent)
        #expect(card.document("card") == ["title": "Hello", "count": 3, "busy": false])
    }
}
