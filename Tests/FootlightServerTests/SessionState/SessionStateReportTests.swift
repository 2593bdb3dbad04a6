import Testing

@testable import FootlightServer

@Suite("SessionState: what the page reports")
struct SessionStateReportTests {
    @Test("A stage's binding error and a page's own problem (no stage) are logged as what they are")
    func reports() {
        let machine = SessionMachine()
        machine.attach()
        machine.perform(machine.state.report(stage: "lot", message: "no slot \"price\"", now: machine.now))
        machine.perform(
            machine.state.report(stage: "", message: "this page's runtime speaks protocol v2", now: machine.now))
        #expect(
            machine.logs.suffix(2) == [
                "the page reports a binding error in stage \"lot\": no slot \"price\"",
                "the page reports: this page's runtime speaks protocol v2",
            ])
    }
}
