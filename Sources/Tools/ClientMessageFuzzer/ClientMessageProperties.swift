import FootlightJSON
import FootlightServer

/// What must hold for any bytes a client can send: the decoder either returns a
/// message within the protocol's limits or throws a ``ProtocolError`` with a decoding
/// code, and every text the JSON reader accepts survives a write and a re-read.
/// A violation stops the fuzzer with the input saved as a crash.
enum ClientMessageProperties {
    static func check(_ bytes: UnsafeRawBufferPointer) {
        checkDecoding(bytes)
        checkJSONRoundTrip(bytes)
    }

    /// The decoder's result stays inside the limits the rest of the server relies on.
    private static func checkDecoding(_ bytes: UnsafeRawBufferPointer) {
        let message: ClientMessage
        do {
            message = try ClientMessage(bytes: bytes)
        } catch {
            require(
                [.malformedJSON, .badMessage, .unsupportedVersion].contains(error.code),
                "the decoder threw \(error.code), which is not a decoding error")
            return
        }
        switch message {
        case .join(let version, let resume, let path, let restore, let refusedRestore):
            require(restore == nil || refusedRestore == nil, "join kept a restore it refused")
            require(version == ClientMessage.version, "join accepted protocol v\(version)")
            require((resume?.lastSeq ?? 0) >= 0, "join accepted a negative seq")
            require((path?.utf8.count ?? 0) <= 2048, "join accepted a path of \(path?.utf8.count ?? 0) bytes")
            let stages = restore?.stages ?? []
            require(
                stages.count <= ClientMessage.Restore.maximumStages, "join accepted \(stages.count) restored stages")
            for stage in stages {
                require(
                    !stage.template.isEmpty && stage.template.utf8.count <= 128,
                    "join accepted a restored template of \(stage.template.utf8.count) bytes")
                require(
                    stage.values.count <= ClientMessage.Restore.maximumValues,
                    "join accepted \(stage.values.count) restored values")
            }
        case .event(let event):
            require(event.number > 0, "event accepted number \(event.number)")
            for name in [event.stage, event.name] {
                require(!name.isEmpty && name.utf8.count <= 128, "event accepted a name of \(name.utf8.count) bytes")
            }
        case .ack(let seq):
            require(seq >= 0, "ack accepted seq \(seq)")
        case .ping:
            break
        case .report(let stage, let text):
            require(stage.utf8.count <= 128, "report kept a stage of \(stage.utf8.count) bytes")
            require(text.utf8.count <= 1000, "report kept a message of \(text.utf8.count) bytes")
        }
    }

    /// Parse, write, parse again: the same value, and the written length is the one
    /// ``JSON/compactSize(limit:)`` predicts (what the diff's size guard relies on).
    private static func checkJSONRoundTrip(_ bytes: UnsafeRawBufferPointer) {
        guard let value = try? JSON.parse(bytes) else { return }
        let text: [UInt8]
        do {
            text = try value.serializedBytes()
        } catch {
            fatalError("a parsed value could not be written: \(error)")
        }
        require(text.count == value.compactSize(), "compactSize \(value.compactSize()) but wrote \(text.count) bytes")
        do {
            let again = try JSON.parse(text)
            require(again.isIdentical(to: value), "re-reading the written text gave a different value")
        } catch {
            fatalError("the written text could not be read back: \(error)")
        }
    }

    private static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError(message()) }
    }
}
