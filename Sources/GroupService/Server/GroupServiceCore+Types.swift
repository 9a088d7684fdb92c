import GroupCoordination

/// Why the server refused a message, as the `error` message's `code` names it
/// (`docs/group-protocol.md`, "Error codes and close codes").
public enum ServiceErrorCode: String, Sendable, Hashable, CaseIterable {
    /// Malformed JSON, a missing or ill-typed field.
    case badMessage = "bad-message"
    /// A `type` this server does not know.
    case unknownType = "unknown-type"
    /// `hello.protocol` is not the server's.
    case protocolVersion = "protocol-version"
    /// No, a forged, expired, revoked or wrong-session token, or a resume that does not match.
    case unauthorized
    /// The role does not allow the command.
    case forbidden
    /// A time or number outside its bounds.
    case outOfRange = "out-of-range"
    /// Over the message rate.
    case rateLimited = "rate-limited"
    /// The session has its maximum of participants.
    case sessionFull = "session-full"
    /// The session was ended (or never existed).
    case sessionEnded = "session-ended"
    /// A message over the size limit.
    case tooBig = "too-big"
    /// The store failed: the command was not committed; retry it with the same id.
    case `internal`
}

/// Identifies one connection to the server (the shell's socket), stable for its lifetime.
public typealias ServiceConnectionID = UInt64

/// What the server sends a participant (the shell encodes it).
public enum ServiceOutbound: Sendable, Hashable {
    /// The answer to `hello`.
    case welcome(ServiceWelcome)
    /// An event in the session's order.
    case event(SequencedEvent)
    /// The command `commandID` is committed as `version` (or was, the first time it was sent).
    case ack(commandID: String, version: UInt64)
    /// A refusal.
    case error(code: ServiceErrorCode, message: String, commandID: String?)
    /// The answer to a clock probe: the probe's own send time and the server's group clock when
    /// it received it and replied (one reading; the server answers at once).
    case clockReply(id: UInt64, sent: Duration, received: Duration, replied: Duration)
    /// The answer to a `ping`.
    case pong
}

/// What a participant learns when it is admitted.
public struct ServiceWelcome: Sendable, Hashable {
    /// The session.
    public var session: String
    /// The participant's identity in the session (its coordinator's participant ID).
    public var participant: String
    /// Its role.
    public var role: GroupRole
    /// The secret it presents to resume after a reconnect.
    public var secret: String
    /// The stream the session plays.
    public var stream: String
    /// How often it must send something (a `ping` when it has nothing else to say).
    public var keepAlive: Duration
    /// The session's version when the snapshot was taken.
    public var version: UInt64
    /// The events that make up the session's state (on a resume within the log: the events it
    /// missed), in version order.
    public var snapshot: [SequencedEvent]
    /// Whether `snapshot` holds only what a resuming participant missed (it keeps its state)
    /// rather than the whole state.
    public var isResumption: Bool

    /// A welcome.
    public init(
        session: String, participant: String, role: GroupRole, secret: String, stream: String, keepAlive: Duration,
        version: UInt64, snapshot: [SequencedEvent], isResumption: Bool
    ) {
        self.session = session
        self.participant = participant
        self.role = role
        self.secret = secret
        self.stream = stream
        self.keepAlive = keepAlive
        self.version = version
        self.snapshot = snapshot
        self.isResumption = isResumption
    }
}

/// A `hello` that the shell has already checked: the protocol version matched and the
/// invitation token verified (signature, expiry, not revoked).
public struct ServiceHello: Sendable, Hashable {
    /// The session the token admits to.
    public var session: String
    /// The role it grants.
    public var role: GroupRole
    /// The name the participant gave (at most 64 characters; the shell truncates).
    public var name: String
    /// A resume attempt: who it was, the SHA-256 of the secret it presents, and the last version
    /// it applied.
    public var resume: Resume?
    /// A fresh secret for a new participant, and its hash (the shell makes them: the core has no
    /// randomness).
    public var newSecret: String
    /// `newSecret`'s SHA-256, hex.
    public var newSecretHash: String

    /// A resume attempt.
    public struct Resume: Sendable, Hashable {
        /// The participant it was.
        public var participant: String
        /// The SHA-256 of the secret it presents, hex.
        public var secretHash: String
        /// The last version it applied.
        public var version: UInt64

        /// A resume attempt.
        public init(participant: String, secretHash: String, version: UInt64) {
            self.participant = participant
            self.secretHash = secretHash
            self.version = version
        }
    }

    /// A checked hello.
    public init(session: String, role: GroupRole, name: String, resume: Resume?, newSecret: String, newSecretHash: String) {
        self.session = session
        self.role = role
        self.name = name
        self.resume = resume
        self.newSecret = newSecret
        self.newSecretHash = newSecretHash
    }
}
