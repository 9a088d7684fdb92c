import GroupWire

extension CoordinationMessage: WireCodable {
    /// An object with a `"type"` (`playback-state`, `participant-state`, `ad-schedule`, `hello`)
    /// and the fields of its payload beside it: `{"type": "hello", "participant": "alice"}`.
    ///
    /// - Throws: ``WireDecodingError/Kind/unknownType(_:)`` for another type.
    public init(wire: WireValue) throws(WireDecodingError) {
        let fields = try WireFields(wire)
        switch try fields.type() {
        case "playback-state": self = .playbackState(try CoordinatedPlaybackState(wire: wire))
        case "participant-state": self = .participantState(try ParticipantStateUpdate(wire: wire))
        case "ad-schedule": self = .adSchedule(try AdSchedule(wire: wire))
        case "hello": self = .hello(try fields.decode("participant"))
        case let other: throw WireDecodingError(path: [.key("type")], kind: .unknownType(other))
        }
    }

    public var wire: WireValue {
        switch self {
        case .playbackState(let state): .typed("playback-state", state.wire)
        case .participantState(let update): .typed("participant-state", update.wire)
        case .adSchedule(let schedule): .typed("ad-schedule", schedule.wire)
        case .hello(let participant): .typed("hello", .object(["participant": participant.wire]))
        }
    }
}

extension CoordinationEnvelope {
    /// `{"sender": "alice", "message": {…}}`.
    public init(wire: WireValue) throws(WireDecodingError) {
        let fields = try WireFields(wire)
        self.init(sender: try fields.decode("sender"), message: try fields.decode("message"))
    }

    public var wire: WireValue {
        .object(["sender": sender.wire, "message": message.wire])
    }
}
