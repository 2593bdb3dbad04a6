import CHiredis

/// One reply from Redis, copied out of hiredis's reply object.
public indirect enum RedisReply: Sendable, Equatable {
    /// A bulk string (binary-safe).
    case string([UInt8])
    /// A status reply, such as `OK`.
    case status(String)
    /// An error reply, such as `ERR unknown command`.
    case error(String)
    case integer(Int64)
    case array([RedisReply])
    /// A nil bulk string or array.
    case null

    /// Copies `reply` (which stays owned by the caller).
    init(_ reply: UnsafePointer<redisReply>) {
        let value = reply.pointee
        func bytes() -> [UInt8] {
            guard let str = value.str, value.len > 0 else { return [] }
            return UnsafeRawBufferPointer(start: str, count: value.len).map { $0 }
        }
        switch value.type {
        case REDIS_REPLY_STRING: self = .string(bytes())
        case REDIS_REPLY_STATUS: self = .status(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_ERROR: self = .error(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_INTEGER: self = .integer(Int64(value.integer))
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            elements.reserveCapacity(value.elements)
            for index in 0..<value.elements {
                if let element = value.element[index] {
                    elements.append(RedisReply(element))
                } else {
                    elements.append(.null)
                }
            }
            self = .array(elements)
        default: self = .null
        }
    }

    /// The bulk string as text, if this is one.
    public var text: String? {
        if case .string(let bytes) = self { return String(decoding: bytes, as: UTF8.self) }
        return nil
    }
}
