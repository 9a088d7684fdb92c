import CHiredis

/// A Redis reply, copied out of hiredis's reply tree.
public enum RedisReply: Sendable, Hashable {
    /// A bulk or status string.
    case string([UInt8])
    /// An integer.
    case integer(Int64)
    /// An array (nested replies).
    case array([RedisReply])
    /// The null bulk string or null array.
    case null
    /// An error reply (`ERR …`, or an error a script returned).
    case error(String)

    init(_ reply: UnsafePointer<redisReply>) {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STRING, REDIS_REPLY_STATUS:
            self = .string(value.str.map { Array(UnsafeRawBufferPointer(start: $0, count: value.len)) } ?? [])
        case REDIS_REPLY_INTEGER:
            self = .integer(Int64(value.integer))
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            elements.reserveCapacity(value.elements)
            for index in 0..<value.elements {
                if let element = value.element[index] { elements.append(RedisReply(element)) } else { elements.append(.null) }
            }
            self = .array(elements)
        case REDIS_REPLY_ERROR:
            self = .error(value.str.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: value.len), as: UTF8.self) } ?? "")
        default:
            self = .null
        }
    }

    /// The string, as UTF-8 text.
    public var text: String? {
        if case .string(let bytes) = self { return String(decoding: bytes, as: UTF8.self) }
        return nil
    }

    /// The bytes of a string reply.
    public var bytes: [UInt8]? {
        if case .string(let bytes) = self { return bytes }
        return nil
    }

    /// An integer, or a string that holds one (as `HGET` returns counters).
    public var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .string(let bytes): Int64(String(decoding: bytes, as: UTF8.self))
        default: nil
        }
    }

    /// The elements of an array reply (none for anything else).
    public var elements: [RedisReply] {
        if case .array(let elements) = self { return elements }
        return []
    }
}
