/// A participant of a session, upserted by `(session, id)`.
public struct ParticipantRecord: Sendable, Hashable {
    public var id: String
    public var session: String
    public var name: String
    public var role: String
    /// The SHA-256 of the participant's resume secret, as lowercase hex; the store never sees
    /// the secret itself.
    public var secretHash: String
    /// Unix time, milliseconds.
    public var joinedAt: Int64
    /// Unix time, milliseconds.
    public var lastSeenAt: Int64
    /// `present`, `lost` or `left` (opaque to the store).
    public var state: String
    /// The server process that holds its connection while it is present, when several share the
    /// store (``RedisSessionStore``); `nil` for one process alone. The SQLite store, which one
    /// process owns, does not keep it.
    public var node: String?

    public init(
        id: String,
        session: String,
        name: String,
        role: String,
        secretHash: String,
        joinedAt: Int64,
        lastSeenAt: Int64,
        state: String,
        node: String? = nil
    ) {
        self.id = id
        self.session = session
        self.name = name
        self.role = role
        self.secretHash = secretHash
        self.joinedAt = joinedAt
        self.lastSeenAt = lastSeenAt
        self.state = state
        self.node = node
    }
}
