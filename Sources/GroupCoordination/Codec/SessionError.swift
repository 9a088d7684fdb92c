import GroupWire

/// The server's refusal of a message (docs/group-protocol.md, "Error codes and close codes").
///
///     {"type":"error","code":"forbidden","message":"viewers cannot seek","id":"c7"}
public struct SessionError: Sendable, Hashable {
    /// A refusal's code: one of the protocol's, or one a newer server added (kept as its text, as
    /// `NS_TYPED_EXTENSIBLE_ENUM` keeps unknown values).
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The code as written, `"bad-message"`.
        public var rawValue: String

        /// A code from its text.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A code from a string literal.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// The text.
        public var description: String { rawValue }

        /// Malformed JSON, a missing or ill-typed field; the connection stays open (3 in a row:
        /// close 1007).
        public static let badMessage: Code = "bad-message"
        /// A `type` the server does not know; the connection stays open.
        public static let unknownType: Code = "unknown-type"
        /// `hello.protocol` is not 1: close 1002.
        public static let protocolVersion: Code = "protocol-version"
        /// A missing, forged, expired, revoked or wrong-session token, or a resume that does not
        /// match: close 1008.
        public static let unauthorized: Code = "unauthorized"
        /// The role does not allow the command; the connection stays open.
        public static let forbidden: Code = "forbidden"
        /// A time or number outside its bounds; the connection stays open.
        public static let outOfRange: Code = "out-of-range"
        /// Over the message rate: close 1008.
        public static let rateLimited: Code = "rate-limited"
        /// The session has its maximum of participants: close 1008.
        public static let sessionFull: Code = "session-full"
        /// The session was ended: close 4004.
        public static let sessionEnded: Code = "session-ended"
        /// A message over 64 KiB: close 1009.
        public static let tooBig: Code = "too-big"
        /// The store failed and the command was not committed; retry with the same id.
        public static let `internal`: Code = "internal"

        /// The WebSocket close code that follows the error, or `nil` when the connection stays open.
        public var closeCode: UInt16? {
            switch self {
            case .protocolVersion: 1002
            case .unauthorized, .rateLimited, .sessionFull: 1008
            case .sessionEnded: 4004
            case .tooBig: 1009
            default: nil
            }
        }

        /// The code with which a server answers a message that did not decode.
        public init(refusing error: WireDecodingError) {
            switch error.kind {
            case .malformedJSON(let json):
                switch json.kind {
                case .documentTooLarge: self = .tooBig
                // A number beyond Int64 or a Double is outside its bounds, not malformed.
                case .integerOutOfRange, .numberOutOfRange: self = .outOfRange
                default: self = .badMessage
                }
            case .missingField, .wrongType, .unknownValue: self = .badMessage
            case .outOfRange: self = .outOfRange
            case .unknownType: self = .unknownType
            case .unsupportedProtocolVersion: self = .protocolVersion
            }
        }
    }

    /// Why.
    public var code: Code
    /// For people.
    public var message: String
    /// The refused command's id, when the refusal answers one.
    public var id: String?

    /// An error.
    public init(code: Code, message: String, id: String? = nil) {
        self.code = code
        self.message = message
        self.id = id
    }

    init(fields: WireFields) throws(WireDecodingError) {
        self.init(
            code: Code(rawValue: try fields.string("code")),
            message: try fields.string("message", maximumBytes: WireBounds.maximumTextBytes, allowsEmpty: true),
            id: try fields.optionalString("id", maximumBytes: SessionClientMessage.maximumCommandIDBytes)
        )
    }

    var fields: WireValue {
        var object: WireObject = ["code": .string(code.rawValue), "message": .string(message)]
        if let id { object["id"] = .string(id) }
        return .object(object)
    }
}
