import GroupWire

/// A change the server sequenced: the session's next ``version``, who caused it, and what it is.
/// Participants apply events strictly in version order.
///
///     {"type":"event","version":12,"sender":"alice","message":{"type":"hello","participant":"alice"}}
public struct SessionEvent: Sendable, Hashable, WireCodable {
    /// What the event carries: exactly one of `message`, `custom`, `presence` on the wire.
    public enum Body: Sendable, Hashable {
        /// A coordination message (from a `command`).
        case message(CoordinationMessage)
        /// A messenger's custom message (from a `custom`).
        case custom(messageType: String, body: WireValue)
        /// A participant joined, left, was lost or returned.
        case presence(Presence)
    }

    /// A change of who is in the session.
    public struct Presence: Sendable, Hashable, WireCodable {
        /// What happened to the participant.
        public enum State: String, Sendable, Hashable, CaseIterable {
            /// It joined.
            case joined
            /// It left for good (`leave`).
            case left
            /// It was silent for two keep-alive intervals; coordinators treat it as gone.
            case lost
            /// It resumed within the resume window.
            case returned
        }

        /// Who.
        public var participant: CoordinatedPlaybackParticipant.ID
        /// Its name.
        public var name: String
        /// Its role.
        public var role: SessionRole
        /// What happened.
        public var state: State

        /// A presence change.
        public init(participant: CoordinatedPlaybackParticipant.ID, name: String, role: SessionRole, state: State) {
            self.participant = participant
            self.name = name
            self.role = role
            self.state = state
        }

        public init(wire: WireValue) throws(WireDecodingError) {
            let fields = try WireFields(wire)
            let text = try fields.string("state")
            guard let state = State(rawValue: text) else { throw WireDecodingError(path: [.key("state")], kind: .unknownValue(text)) }
            self.init(
                participant: try fields.decode("participant"),
                name: try fields.string("name", maximumBytes: WireBounds.maximumIdentifierBytes),
                role: try fields.decode("role"),
                state: state
            )
        }

        public var wire: WireValue {
            .object(["participant": participant.wire, "name": .string(name), "role": role.wire, "state": .string(state.rawValue)])
        }
    }

    /// The session's version after this event: 1, 2, 3, …
    public var version: UInt64
    /// The participant that caused it (for presence, the participant concerned).
    public var sender: CoordinatedPlaybackParticipant.ID
    /// What it carries.
    public var body: Body

    /// An event.
    public init(version: UInt64, sender: CoordinatedPlaybackParticipant.ID, body: Body) {
        self.version = version
        self.sender = sender
        self.body = body
    }

    /// Reads an event, with or without its `"type": "event"` (a snapshot's elements have it too).
    public init(wire: WireValue) throws(WireDecodingError) {
        let fields = try WireFields(wire)
        let present = ["message", "custom", "presence"].filter { fields.optionalValue($0) != nil }
        guard present.count == 1 else {
            if present.isEmpty { throw WireDecodingError(path: [.key("message")], kind: .missingField) }
            throw WireDecodingError(path: [.key(present[1])], kind: .outOfRange(bound: "exactly one of message, custom, presence"))
        }
        let body: Body
        switch present[0] {
        case "message": body = .message(try fields.decode("message"))
        case "custom":
            body = try fields.decode("custom") { (value) throws(WireDecodingError) in
                let custom = try WireFields(value)
                return .custom(messageType: try custom.string("messageType"), body: try custom.value("body"))
            }
        default: body = .presence(try fields.decode("presence"))
        }
        self.init(version: try fields.counter("version"), sender: try fields.decode("sender"), body: body)
    }

    public var wire: WireValue {
        var object: WireObject = ["type": .string("event"), "version": .integer(Int64(clamping: version)), "sender": sender.wire]
        switch body {
        case .message(let message): object["message"] = message.wire
        case .custom(let messageType, let body): object["custom"] = .object(["messageType": .string(messageType), "body": body])
        case .presence(let presence): object["presence"] = presence.wire
        }
        return .object(object)
    }
}
