import Footlight
import FootlightJSON
import Testing

@testable import FootlightServer

/// Every public error is a struct around a kind that callers match and that can grow;
/// a stage's refusal reaches the wire with its kind's code, not through a table.
@Suite("Errors: one shape, no remapping between layers")
struct ErrorShapeTests {
    struct Refused: Error {}

    @Test("A stage's refusal becomes the protocol error of the same code, with its message")
    func stageErrorsAreProtocolCodes() throws {
        let stage = Stage(name: "form")
        stage.on("count") { (_: Int) in }
        stage.on("save") { (_: Int) in throw Refused() }
        let cases: [(name: String, value: JSON, code: ProtocolError.Code)] = [
            ("nope", .null, .unknownEvent), ("count", "three", .badValue), ("save", 1, .directorFailed),
        ]
        for (name, value, code) in cases {
            let stageError = try #require(stage.deliver(name, value: value))
            #expect(stageError.kind.code == code.rawValue)
            #expect(
                ProtocolError(stageError, eventNumber: 7) == ProtocolError(code, stageError.message, eventNumber: 7))
        }
    }

    @Test("Kinds compare and print by name; a switch over one needs a default, so kinds can grow")
    func kindsMatch() {
        let error = ServerError.bind("port 80 is taken")
        #expect(error.kind == .bind && error.kind != .transport)
        #expect("\(error.kind)" == "bind")
        let label: String
        switch UploadError(.tooLarge, file: "a.png", "too large").kind {
        case .tooLarge: label = "too large"
        default: label = "other"
        }
        #expect(label == "too large")
        #expect(UploadError.Kind.typeNotAccepted.code == "type-not-accepted")
    }
}
