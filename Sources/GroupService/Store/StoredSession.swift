/// A session that has not ended, as it is restored after a restart.
public struct StoredSession: Sendable, Hashable {
    public var record: SessionRecord
    /// For each retain key, the newest event with it; ordered by version.
    public var snapshot: [SessionEvent]
    /// Ordered by `joinedAt`, then id.
    public var participants: [ParticipantRecord]

    public init(record: SessionRecord, snapshot: [SessionEvent], participants: [ParticipantRecord]) {
        self.record = record
        self.snapshot = snapshot
        self.participants = participants
    }
}
