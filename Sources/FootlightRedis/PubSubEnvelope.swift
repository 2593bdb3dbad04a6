import FootlightJSON
import OrderedCollections

/// A message as it travels through Redis: who published it, its number among that
/// publisher's messages, and the message. `{"origin":"…","seq":7,"message":…}`.
struct PubSubEnvelope: Equatable {
    /// The publishing ``RedisPubSub`` (a random id per instance).
    let origin: String
    /// 1 for the origin's first message, then one more for each.
    let sequence: Int64
    let message: JSON

    /// The envelope's JSON text around `message`, already encoded.
    static func encode(origin: String, sequence: Int64, message: [UInt8]) -> [UInt8] {
        var bytes = Array("{\"origin\":\"\(origin)\",\"seq\":\(sequence),\"message\":".utf8)
        bytes.reserveCapacity(bytes.count + message.count + 1)
        bytes.append(contentsOf: message)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// Reads an envelope, or says why `bytes` is none.
    static func decode(_ bytes: [UInt8]) throws(PubSubEnvelopeError) -> PubSubEnvelope {
        let json: JSON
        do {
            json = try JSON.parse(bytes)
        } catch {
            throw PubSubEnvelopeError(reason: "not JSON: \(error)")
        }
        guard let object = json.objectValue, object.count == 3 else {
            throw PubSubEnvelopeError(reason: "not an object of origin, seq and message")
        }
        guard let origin = object["origin"]?.stringValue, !origin.isEmpty else {
            throw PubSubEnvelopeError(reason: "no origin")
        }
        guard case .int(let sequence) = object["seq"], sequence > 0 else {
            throw PubSubEnvelopeError(reason: "no positive integer seq")
        }
        guard let message = object["message"] else { throw PubSubEnvelopeError(reason: "no message") }
        return PubSubEnvelope(origin: origin, sequence: sequence, message: message)
    }
}

/// Why bytes from Redis are not an envelope.
struct PubSubEnvelopeError: Error {
    let reason: String
}

/// Remembers the last sequence number seen from each origin, so a message a publisher
/// sent again (after losing its connection before Redis's reply) is applied once.
/// Keeps at most `capacity` origins, forgetting the one first seen longest ago.
struct SequenceFilter {
    private var last: OrderedDictionary<String, Int64> = [:]
    let capacity: Int

    init(capacity: Int = 1_024) {
        self.capacity = capacity
    }

    /// Whether `sequence` from `origin` is new (and records it).
    mutating func admits(_ sequence: Int64, from origin: String) -> Bool {
        if let seen = last[origin] {
            guard sequence > seen else { return false }
            last[origin] = sequence
            return true
        }
        if last.count >= capacity { last.removeFirst() }
        last[origin] = sequence
        return true
    }
}
