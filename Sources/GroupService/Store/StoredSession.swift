/// A session that has not ended, as it is restored after a restart.
public struct StoredSession: Sendable, Hashable {
    public var record: SessionRecord
    /// For each retain key, the newest event with it; ordered by version.
    public var snapshot: [StoredEvent]
    /// The newest events of the log (as many as `loadAll(logLength:)` asked for and the log
    /// still holds), oldest first. Retained events among them are in `snapshot` as well.
    public var log: [StoredEvent]
    /// Ordered by `joinedAt`, then id.
    public var participants: [ParticipantRecord]

    public init(record: SessionRecord, snapshot: [StoredEvent], log: [StoredEvent], participants: [ParticipantRecord]) {
        self.record = record
        self.snapshot = snapshot
        self.log = log
        self.participants = participants
    }
}
