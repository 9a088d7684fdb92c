/// Where the group-session server keeps its sessions so that they survive a restart, `kill -9`
/// included (research/group-service.md 2.1): the server commits a batch, and only once `commit`
/// has returned does it acknowledge the commands in it and fan their events out.
///
/// Used from one server thread at a time; every call is synchronous.
public protocol SessionStore: Sendable {
    /// Keeps the whole batch or, when it throws, none of it. Returns only once the batch is
    /// durable (for SQLite: after `COMMIT` succeeded with `synchronous=FULL`).
    func commit(_ batch: StoreBatch) throws(SessionStoreError)

    /// Every session that has not ended, ordered by creation time then id, with its snapshot,
    /// the events of its newest `logLength` versions that the log holds, and its participants.
    func loadAll(logLength: Int) throws(SessionStoreError) -> [StoredSession]

    /// Up to `limit` events with versions above `version`, oldest first, for gap repair and
    /// resume. The log keeps the newest events of each session only: when the first event
    /// returned is not `version + 1`, the caller needs the snapshot instead. An unknown session
    /// has no events.
    func events(session: String, after version: UInt64, limit: Int) throws(SessionStoreError) -> [StoredEvent]

    /// The version that the event with this command id got, or `nil`: a retried command
    /// after a restart is answered with it instead of being applied twice.
    func commandVersion(session: String, sender: String, commandID: String) throws(SessionStoreError) -> UInt64?

    /// Whether the token id was revoked and not forgotten yet (see
    /// `StoreBatch.forgetsRevocationsExpiredBy`).
    func isRevoked(tokenID: String) throws(SessionStoreError) -> Bool
}

extension SessionStore {
    /// Every session that has not ended, with the newest 1,000 events of each log (the server
    /// core's default `logLength`).
    public func loadAll() throws(SessionStoreError) -> [StoredSession] {
        try loadAll(logLength: 1_000)
    }
}

/// How many events the store keeps per session when not told otherwise: events older than the
/// newest 10,000 are dropped, unless the snapshot holds them.
public let defaultEventsKeptPerSession = 10_000
