import GroupWire

/// The server's answer to a ``SessionHello``: who the participant is in the session, and the
/// session's state so far.
public struct SessionWelcome: Sendable, Hashable {
    /// A participant of the session, as the welcome lists them.
    public struct Participant: Sendable, Hashable, WireCodable {
        /// Its identity.
        public var participant: CoordinatedPlaybackParticipant.ID
        /// Its name.
        public var name: String
        /// Its role.
        public var role: SessionRole

        /// A participant.
        public init(participant: CoordinatedPlaybackParticipant.ID, name: String, role: SessionRole) {
            self.participant = participant
            self.name = name
            self.role = role
        }

        public init(wire: WireValue) throws(WireDecodingError) {
            let fields = try WireFields(wire)
            self.init(
                participant: try fields.decode("participant"),
                name: try fields.string("name", maximumBytes: WireBounds.maximumIdentifierBytes),
                role: try fields.decode("role")
            )
        }

        public var wire: WireValue {
            .object(["participant": participant.wire, "name": .string(name), "role": role.wire])
        }
    }

    /// The most events a snapshot holds.
    public static let maximumSnapshotEvents = 1_024
    /// The most participants a welcome lists.
    public static let maximumParticipants = 256

    /// The session's identifier.
    public var session: String
    /// The participant's identity in it (its coordinator's participant ID).
    public var participant: CoordinatedPlaybackParticipant.ID
    /// Its role.
    public var role: SessionRole
    /// What it presents in a `resume` to come back. Empty in the welcome of a resume or of a
    /// resync: the server keeps only the secret's hash, and the participant keeps the secret it
    /// was first given.
    public var secret: String
    /// The stream the session watches (a URL or an origin's stream name).
    public var stream: String
    /// The longest the participant may stay silent (it sends `ping` when it has nothing to say).
    public var keepAlive: Duration
    /// The session's last event version.
    public var version: UInt64
    /// The newest event of each kind and sender (docs/group-protocol.md, "The session's order").
    public var snapshot: [SessionEvent]
    /// Who is in the session.
    public var participants: [Participant]

    /// A welcome.
    public init(
        session: String,
        participant: CoordinatedPlaybackParticipant.ID,
        role: SessionRole,
        secret: String,
        stream: String,
        keepAlive: Duration,
        version: UInt64,
        snapshot: [SessionEvent],
        participants: [Participant]
    ) {
        self.session = session
        self.participant = participant
        self.role = role
        self.secret = secret
        self.stream = stream
        self.keepAlive = keepAlive
        self.version = version
        self.snapshot = snapshot
        self.participants = participants
    }

    init(fields: WireFields) throws(WireDecodingError) {
        try SessionProtocol.check(fields)
        self.init(
            session: try fields.string("session"),
            participant: try fields.decode("participant"),
            role: try fields.decode("role"),
            secret: try fields.string("secret", allowsEmpty: true),
            stream: try fields.string("stream", maximumBytes: WireBounds.maximumItemIdentifierBytes),
            keepAlive: try fields.duration("keepAlive", nonNegative: true),
            version: try fields.counter("version"),
            snapshot: try fields.array("snapshot", maximumCount: Self.maximumSnapshotEvents),
            participants: try fields.array("participants", maximumCount: Self.maximumParticipants)
        )
    }

    var fields: WireValue {
        .object([
            "protocol": .integer(SessionProtocol.version),
            "session": .string(session),
            "participant": participant.wire,
            "role": role.wire,
            "secret": .string(secret),
            "stream": .string(stream),
            "keepAlive": keepAlive.wire,
            "version": .integer(Int64(clamping: version)),
            "snapshot": .array(snapshot.map(\.wire)),
            "participants": .array(participants.map(\.wire)),
        ])
    }
}
