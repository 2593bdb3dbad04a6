import FootlightJSON
import FootlightServer

/// The protocol v1 messages the generator writes, and the quick reads it makes of
/// the replies that matter in the closed loop, framed by hand from the server's table
/// (``Wire``). Anything the quick reads do not recognise is parsed in full by the caller.
enum LoadWire {
    /// `{"t":"join","v":1}`
    static func join(into text: OutgoingText) {
        text.reset()
        text.append(joinText)
    }

    /// `{"t":"event","n":N,"stage":"counter","name":"increment"}`, which is also what
    /// the echo connections send (so both carry messages of the same size).
    static func event(_ number: Int64, into text: OutgoingText) {
        text.reset()
        text.append(eventPrefix)
        text.append(number)
        text.append(eventSuffix)
    }

    /// `{"t":"ack","seq":S}`
    static func ack(seq: Int64, into text: OutgoingText) {
        text.reset()
        text.append(ackPrefix)
        text.append(seq)
        text.append("}")
    }

    /// The size of an event message numbered `number`.
    static func eventSize(_ number: Int64) -> Int {
        let text = OutgoingText()
        event(number, into: text)
        return text.count
    }

    /// Reads `{"t":"patch","seq":S, … ,"ack":N}` as the server writes it (compact, members
    /// in that order): the seq and the acknowledged event number. Nil for anything else.
    static func patchAck(_ bytes: UnsafeRawBufferPointer) -> (seq: Int64, ack: Int64)? {
        guard let (seq, _) = integer(after: patchPrefix, in: bytes) else { return nil }
        // Backwards from the closing brace: digits, then `,"ack":`.
        guard bytes.count > ackSuffix.count + 2, bytes[bytes.count - 1] == UInt8(ascii: "}") else { return nil }
        var start = bytes.count - 1
        while start > 0, isDigit(bytes[start - 1]) { start -= 1 }
        guard start < bytes.count - 1, start >= ackSuffix.count else { return nil }
        for (offset, byte) in ackSuffix.enumerated() where bytes[start - ackSuffix.count + offset] != byte {
            return nil
        }
        guard let ack = decimal(bytes, start..<(bytes.count - 1)) else { return nil }
        return (seq, ack)
    }

    /// Reads the number of an echoed event message; nil for anything else.
    static func echoedEvent(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        guard let (number, end) = integer(after: eventPrefix, in: bytes),
            bytes.count - end == eventSuffix.count
        else { return nil }
        for (offset, byte) in eventSuffix.enumerated() where bytes[end + offset] != byte { return nil }
        return number
    }

    private static let joinText = try! Wire.Client.join.message([.version: .int(Int64(ClientMessage.version))])
        .serializedBytes()
    private static let ackPrefix = Wire.opening(Wire.Client.ack.rawValue, .seq)
    private static let patchPrefix = Wire.opening(Wire.Server.patch.rawValue, .seq)
    private static let ackSuffix = Wire.member(.ack)
    private static let eventPrefix = Wire.opening(Wire.Client.event.rawValue, .number)
    private static let eventSuffix =
        Wire.member(.stage) + Array(#""counter""#.utf8) + Wire.member(.name) + Array(#""increment"}"#.utf8)

    /// The integer right after `prefix`, and the index just past it.
    private static func integer(after prefix: [UInt8], in bytes: UnsafeRawBufferPointer) -> (Int64, Int)? {
        guard bytes.count > prefix.count else { return nil }
        for (offset, byte) in prefix.enumerated() where bytes[offset] != byte { return nil }
        var end = prefix.count
        while end < bytes.count, isDigit(bytes[end]) { end += 1 }
        guard let value = decimal(bytes, prefix.count..<end) else { return nil }
        return (value, end)
    }

    private static func decimal(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int64? {
        guard !range.isEmpty, range.count <= 18 else { return nil }
        var value: Int64 = 0
        for index in range { value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0")) }
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
