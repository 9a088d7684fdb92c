/// Why a message could not be sent or understood.
public enum GroupMessengerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The frame is not one a messenger sends.
    case malformedFrame(ReliableFrameDecodingError)
    /// The frame starts with a kind this version does not know.
    case unknownFrameKind(UInt8)
    /// The envelope's type name is cut short.
    case malformedEnvelope
    /// No type is registered under this name (a newer peer, or a registration missing here).
    case unknownMessageType(String)
    /// The body is not valid JSON for the registered type, or is out of its bounds.
    case undecodableMessage(type: String, error: WireDecodingError)

    /// A sentence for logs.
    public var description: String {
        switch self {
        case .malformedFrame(let error): return "malformed frame (\(error))"
        case .unknownFrameKind(let kind): return "unknown frame kind \(kind)"
        case .malformedEnvelope: return "malformed message envelope"
        case .unknownMessageType(let name): return "unknown message type \"\(name)\""
        case .undecodableMessage(let name, let error): return "cannot decode \"\(name)\": \(error)"
        }
    }
}
