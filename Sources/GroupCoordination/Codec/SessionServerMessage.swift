import GroupWire

/// What the session server sends a participant (docs/group-protocol.md, "Messages: server →
/// participant").
public enum SessionServerMessage: Sendable, Hashable, WireCodable {
    /// `welcome`: answers `hello`; carries `"protocol": 1`.
    case welcome(SessionWelcome)
    /// `event`: a sequenced change, in version order.
    case event(SessionEvent)
    /// `ack`: the command `id` is committed as event `version`.
    case ack(id: String, version: UInt64)
    /// `error`: a refusal.
    case error(SessionError)
    /// `clock.reply`: the answer to a `clock.probe`, stamped on the server's clock.
    case clockReply(ClockProbeReply)
    /// `pong`: the answer to `ping`.
    case pong

    /// The message's `"type"`.
    public var type: String {
        switch self {
        case .welcome: "welcome"
        case .event: "event"
        case .ack: "ack"
        case .error: "error"
        case .clockReply: "clock.reply"
        case .pong: "pong"
        }
    }

    /// - Throws: ``WireDecodingError``; ``WireDecodingError/Kind/unsupportedProtocolVersion(_:)``
    ///   for a welcome of another version.
    public init(wire: WireValue) throws(WireDecodingError) {
        let fields = try WireFields(wire)
        switch try fields.type() {
        case "welcome": self = .welcome(try SessionWelcome(fields: fields))
        case "event": self = .event(try SessionEvent(wire: wire))
        case "ack":
            self = .ack(id: try fields.string("id", maximumBytes: SessionClientMessage.maximumCommandIDBytes), version: try fields.counter("version"))
        case "error": self = .error(try SessionError(fields: fields))
        case "clock.reply": self = .clockReply(try ClockProbeReply(wire: wire))
        case "pong": self = .pong
        case let other: throw WireDecodingError(path: [.key("type")], kind: .unknownType(other))
        }
    }

    public var wire: WireValue {
        switch self {
        case .welcome(let welcome): .typed(type, welcome.fields)
        case .event(let event): event.wire
        case .ack(let id, let version): .typed(type, .object(["id": .string(id), "version": .integer(Int64(clamping: version))]))
        case .error(let error): .typed(type, error.fields)
        case .clockReply(let reply): .typed(type, reply.wire)
        case .pong: .typed(type)
        }
    }
}
