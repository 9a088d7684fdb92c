import GroupWire

/// What a participant sends the session server (docs/group-protocol.md, "Messages: participant →
/// server"): one JSON object per WebSocket text frame, named by its `"type"`.
///
///     let message = try SessionClientMessage(jsonBytes: frame)   // within WireJSONLimits.standard
///     switch message { case .command(let id, let coordination): … }
public enum SessionClientMessage: Sendable, Hashable, WireCodable {
    /// `hello`: the first message; carries `"protocol": 1`.
    case hello(SessionHello)
    /// `command`: a coordination message to sequence, acknowledged with `ack`.
    case command(id: String, message: CoordinationMessage)
    /// `custom`: a messenger's custom message (any JSON body), sequenced like a command.
    case custom(id: String, messageType: String, body: WireValue)
    /// `clock.probe`: answered with `clock.reply`, never sequenced.
    case clockProbe(ClockProbe)
    /// `resync`: the events from `from` on, or the snapshot.
    case resync(from: UInt64)
    /// `ping`: keep-alive.
    case ping
    /// `leave`: leaves the session for good.
    case leave

    /// The longest command id, in bytes.
    public static let maximumCommandIDBytes = 64

    /// The message's `"type"`.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .command: "command"
        case .custom: "custom"
        case .clockProbe: "clock.probe"
        case .resync: "resync"
        case .ping: "ping"
        case .leave: "leave"
        }
    }

    /// - Throws: ``WireDecodingError``: ``WireDecodingError/Kind/unknownType(_:)`` for a type
    ///   not listed here (answered with `unknown-type`),
    ///   ``WireDecodingError/Kind/unsupportedProtocolVersion(_:)`` for a hello of another version.
    public init(wire: WireValue) throws(WireDecodingError) {
        let fields = try WireFields(wire)
        switch try fields.type() {
        case "hello": self = .hello(try SessionHello(fields: fields))
        case "command":
            self = .command(id: try fields.string("id", maximumBytes: Self.maximumCommandIDBytes), message: try fields.decode("message"))
        case "custom":
            self = .custom(
                id: try fields.string("id", maximumBytes: Self.maximumCommandIDBytes),
                messageType: try fields.string("messageType"),
                body: try fields.value("body")
            )
        case "clock.probe": self = .clockProbe(try ClockProbe(wire: wire))
        case "resync": self = .resync(from: try fields.counter("from"))
        case "ping": self = .ping
        case "leave": self = .leave
        case let other: throw WireDecodingError(path: [.key("type")], kind: .unknownType(other))
        }
    }

    public var wire: WireValue {
        switch self {
        case .hello(let hello): .typed(type, hello.fields)
        case .command(let id, let message): .typed(type, .object(["id": .string(id), "message": message.wire]))
        case .custom(let id, let messageType, let body):
            .typed(type, .object(["id": .string(id), "messageType": .string(messageType), "body": body]))
        case .clockProbe(let probe): .typed(type, probe.wire)
        case .resync(let from): .typed(type, .object(["from": .integer(Int64(clamping: from))]))
        case .ping, .leave: .typed(type)
        }
    }
}
