/// One transaction's worth of changes: the server group-commits every write of one loop turn, so
/// that the fsync is paid once per turn. A batch is kept whole or not at all.
///
/// Its parts are applied in this order: new sessions, events, participants, ended sessions,
/// revocations, then the pruning of expired revocations. An event may therefore go to a session
/// the same batch creates, and the last events of a session may travel with its end.
public struct StoreBatch: Sendable, Hashable {
    /// Sessions to create; an id the store already holds is refused.
    public var newSessions: [SessionRecord] = []
    /// Events to append. Per session they must continue its version without a gap: the first
    /// is the session's version + 1, the next + 2, and so on.
    public var events: [Event] = []
    /// Participants to insert or replace, by `(session, id)`.
    public var participants: [ParticipantRecord] = []
    /// Sessions to end; ending an ended session keeps its first end.
    public var endedSessions: [SessionEnd] = []
    /// Token ids to refuse until their expiry.
    public var revokedTokens: [TokenRevocation] = []
    /// When set, revocations that expire at or before this time (unix seconds, as `expiresAt`)
    /// are forgotten.
    public var forgetsRevocationsExpiredBy: Int64?
    /// The server process that commits it, when several share the store: a shared store's
    /// doorbells name it, so that a process can tell its own changes from the others'.
    public var origin: String?
    /// For sessions the batch changes without events (participants only): the version the
    /// committing process holds, which a shared store checks as it checks the versions events
    /// imply (a participant record written over a version it has not seen would undo what
    /// another process wrote there). SQLite and memory, which one process owns, ignore it.
    public var expectedVersions: [String: UInt64] = [:]

    /// An event and the session it belongs to.
    public struct Event: Sendable, Hashable {
        public var session: String
        public var event: StoredEvent

        public init(session: String, event: StoredEvent) {
            self.session = session
            self.event = event
        }
    }

    /// The end of a session.
    public struct SessionEnd: Sendable, Hashable {
        public var session: String
        /// Unix time, milliseconds.
        public var endedAt: Int64

        public init(session: String, endedAt: Int64) {
            self.session = session
            self.endedAt = endedAt
        }
    }

    /// A revoked token id, kept until the token would have expired anyway.
    public struct TokenRevocation: Sendable, Hashable {
        public var tokenID: String
        /// Unix time, seconds: the token's own expiry.
        public var expiresAt: Int64

        public init(tokenID: String, expiresAt: Int64) {
            self.tokenID = tokenID
            self.expiresAt = expiresAt
        }
    }

    public init() {}

    /// Whether committing the batch would change nothing.
    public var isEmpty: Bool {
        newSessions.isEmpty && events.isEmpty && participants.isEmpty && endedSessions.isEmpty && revokedTokens.isEmpty
            && forgetsRevocationsExpiredBy == nil
    }

    public mutating func append(_ event: StoredEvent, to session: String) {
        events.append(Event(session: session, event: event))
    }

    public mutating func end(_ session: String, at endedAt: Int64) {
        endedSessions.append(SessionEnd(session: session, endedAt: endedAt))
    }

    public mutating func revoke(_ tokenID: String, expiresAt: Int64) {
        revokedTokens.append(TokenRevocation(tokenID: tokenID, expiresAt: expiresAt))
    }
}
