import FootlightServer
import Testing

/// Reading a page's templates as the runtime reads their attributes, and refusing
/// malformed HTML with a typed error.
@Suite struct PageTemplatesTests {
    @Test(
        "Each binding attribute gives the names the runtime reads: paths, negations, comparisons, pairs, a hook's events"
    )
    func namesOfEachAttribute() throws {
        let page = try PageTemplates(
            html: """
                <!doctype html>
                <template data-stage="lot">
                  <h1 data-text="seller.name" data-show="!!title"></h1>
                  <p data-class="on:filter=='a,b', off:!busy" data-attr="href:url, aria-label:t.label"></p>
                  <input data-value="amount" data-on-input='amount' data-on-keydown="key">
                  <canvas data-hook="chart:history"></canvas>
                  <input type="file" data-hook="upload" data-upload="picture">
                  <div data-component="form" data-testid="not-a-binding"></div>
                  <li data-hook="pick" data-sends="picked  chosen"></li>
                </template>
                """)
        let uses = try #require(page["lot"]).uses
        #expect(
            uses.map { "\($0.kind.rawValue) \($0.name)" } == [
                "slot seller.name", "slot title", "slot filter", "slot busy", "slot url", "slot t.label", "slot amount",
                "event amount", "event key", "hook chart", "slot history", "hook upload", "event picture",
                "component form", "hook pick", "event picked", "event chosen",
            ])
        #expect(uses.first?.line == 3)
        #expect(uses.first?.spelling == "data-text=\"seller.name\"")
    }

    @Test(
        "A list's row template reads its rows' members (a hook's slot is the stage's); inert templates and comments are not read"
    )
    func rowsAndInertContent() throws {
        let page = try PageTemplates(
            html: """
                <template data-stage="tasks">
                  <!-- <template data-stage="commented"><p data-text="nope"></p></template> -->
                  <ul data-list="items"><template><li data-text="title" data-hook="chart:history"><ol data-list="tags"><template><i data-text="label"></i></template></ol></li></template></ul>
                  <template><p data-text="inert"></p></template>
                  <script>if (a < b && "</template>") {}</script>
                  <p data-text="done">
                </template>
                <template data-stage="other"><p data-text="x"></template>
                """)
        #expect(page.templates.map(\.name) == ["tasks", "other"])
        let uses = try #require(page["tasks"]).uses
        #expect(uses.map(\.name) == ["items", "title", "chart", "history", "tags", "label", "done"])
        // A hook's slot is the stage's, in a row too.
        #expect(uses.map(\.lists) == [[], ["items"], ["items"], [], ["items"], ["items", "tags"], []])
    }

    @Test("A binding the runtime cannot read, and an event type it does not bind, are malformed uses")
    func malformedBindings() throws {
        let page = try PageTemplates(
            html: """
                <template data-stage="s"><p data-text="a b" data-value="!x" data-attr="nocolon" data-show="!a=='x'" data-on-hover="h" data-class="k:n==1.5"></p></template>
                """)
        let uses = try #require(page["s"]).uses
        #expect(uses.map(\.kind) == [.malformed, .malformed, .malformed, .malformed, .malformed, .slot])
        #expect(uses[4].name.contains("binds no event \"hover\""))
    }

    @Test(
        "Malformed HTML is a typed error with its line, never a crash",
        arguments: [
            ("<template data-stage=\"a\">\n<!-- open", PageError.Kind.unterminated, 2),
            ("<template data-stage=\"a\">\n<p data-text=\"open>\n</template>", .unterminated, 2),
            ("<template data-stage=\"a\"><p data-text=\"x\"", .unterminated, 1),
            ("<p>\n</template>", .unbalanced, 2),
            ("<template data-stage=\"a\"><p></p>", .unbalanced, 0),
            ("<script>never closed", .unterminated, 1),
        ])
    func malformedHTML(html: String, kind: PageError.Kind, line: Int) {
        #expect {
            try PageTemplates(html: html, file: "page.html")
        } throws: { error in
            let error = error as? PageError
            return error?.kind == kind && error?.line == line && error?.description.hasPrefix("page.html") == true
        }
    }

    @Test("Every prefix of a page reads or fails with a typed error")
    func everyPrefix() {
        let html = """
            <!doctype html><template data-stage="a"><!-- c --><ul data-list="r"><template><li data-text='t' data-on-click=go>&amp;</li></template></ul></template>
            """
        for end in html.indices {
            do {
                _ = try PageTemplates(html: String(html[..<end]))
            } catch {
                // A PageError by type; anything else would not compile.
                _ = error.kind
            }
        }
    }

    @Test("A page that cannot be read is an unreadable error")
    func unreadable() {
        #expect(throws: PageError.self) { try PageTemplates(contentsOf: "/nonexistent/page.html") }
    }
}
