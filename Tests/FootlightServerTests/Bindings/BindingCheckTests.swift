import Footlight
import FootlightJSON
import FootlightServer
import Testing

/// The bindings check on a page with typos, both ways, and on a page that matches.
@Suite struct BindingCheckTests {
    struct Row: ViewValue, Identifiable {
        let id: String
        let title: String
        var viewJSON: JSON { ["id": .string(id), "title": .string(title)] }
    }

    /// A stage binding `count`, `seller` (a record), `rows` (a list), events
    /// `increment` and `title`, a page-only `menu`, a component at `form`.
    func stage() -> Stage {
        let stage = Stage(name: "counter")
        stage.bind(Just("1"), to: "count")
        stage.bind(Just(["name": "Ada"] as JSON), to: "seller")
        stage.bind(Just([Row(id: "a", title: "A")]), to: "rows")
        stage.on("increment", send: PassthroughSubject<Void, Never>())
        stage.on("title", send: PassthroughSubject<String, Never>())
        stage.on("@back", send: PassthroughSubject<Void, Never>())
        stage.on("menu", runs: [.toggleClass("open", on: ".menu")])
        stage.place(Stage(name: "form"), at: "form")
        return stage
    }

    func check(_ html: String, ignoring: Set<String> = []) throws -> BindingReport {
        let stage = stage()
        defer { stage.cancel() }
        return BindingCheck.check(
            [stage.bindings], against: try PageTemplates(html: html, file: "index.html"), ignoring: ignoring)
    }

    let matching = """
        <template data-stage="counter">
          <p data-text="count"></p><p data-text="seller.name"></p>
          <ul data-list="rows"><template><li data-text="title" data-on-click="increment"></li></template></ul>
          <input data-on-input="title"><button data-on-click="menu"></button>
          <div data-component="form"></div>
        </template>
        <template data-stage="form"></template>
        <template data-stage="unrelated"><p data-text="x"></p></template>
        """

    @Test("A page that matches its stages has no mismatch; templates no stage showed are listed")
    func matchingPage() throws {
        let report = try check(matching)
        #expect(report.mismatches == [])
        #expect(report.checked == ["counter", "form"])
        #expect(report.unchecked == ["unrelated"])
    }

    @Test("A slot typo is reported both ways, each with the other side's spelling")
    func slotTypo() throws {
        let report = try check(matching.replacingOccurrences(of: "data-text=\"count\"", with: "data-text=\"cont\""))
        #expect(report.mismatches.map(\.kind) == [.unboundSlot, .unusedSlot])
        let page = try #require(report.mismatches.first)
        #expect(page.name == "cont" && page.suggestion == "count" && page.line == 2)
        #expect(
            page.description
                == "template \"counter\" data-text=\"cont\" (line 2): names slot \"cont\", which the stage never binds in Swift; did you mean \"count\" (in Swift)?"
        )
        let swift = report.mismatches[1]
        #expect(swift.name == "count" && swift.suggestion == "cont")
        #expect(swift.description.contains("did you mean \"cont\" (in the template)?"))
        #expect(swift.description.contains("data-text=\"cont\" at line 2"))
    }

    @Test("An event typo is reported both ways; the runtime's own events are not")
    func eventTypo() throws {
        let report = try check(
            matching.replacingOccurrences(of: "data-on-input=\"title\"", with: "data-on-input=\"titel\""))
        #expect(report.mismatches.map(\.kind) == [.unknownEvent, .unusedEvent])
        #expect(report.mismatches.map(\.suggestion) == ["title", "titel"])
        #expect(report.mismatches[0].description.contains("sends event \"titel\", which the stage does not accept"))
    }

    @Test("A name nothing resembles is reported with no suggestion; ignored names are not")
    func unusedName() throws {
        let html = matching.replacingOccurrences(
            of: "<p data-text=\"count\">", with: "<p data-text=\"count\" data-show=\"zebra\">")
        let report = try check(html)
        #expect(report.mismatches.map(\.kind) == [.unboundSlot])
        #expect(report.mismatches.first?.suggestion == nil)
        #expect(report.mismatches.first?.description.contains("did you mean") == false)
        #expect(try check(html, ignoring: ["zebra"]).mismatches == [])
    }

    @Test("Row members and record members are checked against the values the document holds")
    func members() throws {
        let html = matching.replacingOccurrences(of: "data-text=\"title\"", with: "data-text=\"tilte\"")
            .replacingOccurrences(of: "seller.name", with: "seller.nmae")
        let report = try check(html)
        #expect(report.mismatches.map(\.kind) == [.unknownMember, .unknownMember])
        #expect(report.mismatches.map(\.suggestion) == ["seller.name", "title"])
    }

    @Test("A missing template, include, component host and malformed binding are reported")
    func missingAndMalformed() throws {
        let html = """
            <template data-stage="countr"><p data-include="parts"></p><p data-text="a b"></p></template>
            """
        let stage = stage()
        defer { stage.cancel() }
        let report = BindingCheck.check([stage.bindings], against: try PageTemplates(html: html))
        #expect(report.mismatches.map(\.kind) == [.missingTemplate, .missingTemplate])
        #expect(report.mismatches.first?.suggestion == "countr")
        let other = BindingCheck.check(
            [Stage(name: "countr").bindings], against: try PageTemplates(html: html))
        #expect(other.mismatches.map(\.kind) == [.missingInclude, .malformed])
        let placed = try check(
            matching.replacingOccurrences(of: "data-component=\"form\"", with: "data-component=\"from\""))
        #expect(placed.mismatches.map(\.kind) == [.unusedComponent, .unknownComponent])
        #expect(placed.mismatches.map(\.suggestion) == ["form", "from"])
    }

    @Test("Included templates' names count for the stage that includes them")
    func includes() throws {
        let html =
            matching.replacingOccurrences(
                of: "<p data-text=\"count\"></p>", with: "<div data-include=\"shared\"></div>")
            + "<template data-stage=\"shared\"><p data-text=\"count\"></p></template>"
        #expect(try check(html).mismatches == [])
    }
}
