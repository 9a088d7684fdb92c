/// A per-item logical (Lamport) timestamp that orders the group's playback commands, so that
/// concurrent commands resolve to the same winner on every participant and stale ones are ignored.
///
/// Ordered by ``counter``, then by ``participant`` (the tie-breaker for commands issued
/// concurrently with equal counters). A counter of zero marks an initial proposal (an item's first
/// timing, proposed when a participant starts an item); initial proposals are ordered by
/// ``issuedAt`` first, so that the oldest one wins and a late joiner's proposal never resets a group
/// that was already playing.
public struct CoordinationTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The logical clock: one more than the largest counter the issuer had seen for the item.
    public var counter: UInt64
    /// The participant that issued the command.
    public var participant: CoordinatedPlaybackParticipant.ID
    /// When the command was issued, on the group clock (orders initial proposals).
    public var issuedAt: Duration

    /// A timestamp.
    public init(counter: UInt64, participant: CoordinatedPlaybackParticipant.ID, issuedAt: Duration) {
        self.counter = counter
        self.participant = participant
        self.issuedAt = issuedAt
    }

    /// Lamport order with the participant as tie-breaker; initial proposals (counter 0) oldest first.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
        if lhs.counter == 0, lhs.issuedAt != rhs.issuedAt {
            // The older initial proposal is the greater one: it wins.
            return lhs.issuedAt > rhs.issuedAt
        }
        return lhs.participant < rhs.participant
    }

    /// `counter@participant`.
    public var description: String { "\(counter)@\(participant)" }
}
