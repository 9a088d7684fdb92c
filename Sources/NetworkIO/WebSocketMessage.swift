/// A complete WebSocket data message (RFC 6455 §5.6): fragments are reassembled before a message
/// is delivered, and large messages are fragmented on the way out.
public enum WebSocketMessage: Sendable, Equatable, CustomStringConvertible {
    /// A text message (opcode 0x1); the text arrives validated as UTF-8.
    case text(String)
    /// A binary message (opcode 0x2).
    case binary([UInt8])

    /// The payload length in bytes.
    public var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let bytes): bytes.count
        }
    }

    /// For example `text(5 bytes)`.
    public var description: String {
        switch self {
        case .text(let text): "text(\(text.utf8.count) bytes)"
        case .binary(let bytes): "binary(\(bytes.count) bytes)"
        }
    }
}
