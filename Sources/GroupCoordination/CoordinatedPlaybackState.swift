import MediaTime

/// The group's playback intent for one item: a rate and an anchor (a coordinated time at a group
/// time), stamped with the ``CoordinationTimestamp`` that orders it against concurrent commands.
///
/// Every rate change and seek coordinated by a participant produces a new state; the one with the
/// greatest timestamp wins on every participant. Times are on the coordinated timeline (the shared
/// primary content, see ``CoordinatedTimeMapping``) and on the group clock.
public struct CoordinatedPlaybackState: Sendable, Hashable {
    /// Which item (item identity, not URL: participants may load it from different URLs).
    public var itemIdentifier: String
    /// The group's rate: 0 paused, otherwise playing at that rate from ``anchorTime`` at
    /// ``anchorGroupTime``.
    public var rate: Double
    /// The coordinated time at ``anchorGroupTime``.
    public var anchorTime: MediaTime
    /// When the group is at ``anchorTime``: a safe margin after ``CoordinationTimestamp/issuedAt``
    /// for a start, so that the command reaches everyone before it takes effect.
    public var anchorGroupTime: Duration
    /// Orders this state against others for the same item.
    public var timestamp: CoordinationTimestamp
    /// Whether the play ignores suspensions and readiness that were holding the group when it was
    /// issued (Apple's `playImmediately`).
    public var playsImmediately: Bool

    /// A state.
    public init(
        itemIdentifier: String,
        rate: Double,
        anchorTime: MediaTime,
        anchorGroupTime: Duration,
        timestamp: CoordinationTimestamp,
        playsImmediately: Bool = false
    ) {
        self.itemIdentifier = itemIdentifier
        self.rate = rate
        self.anchorTime = anchorTime
        self.anchorGroupTime = anchorGroupTime
        self.timestamp = timestamp
        self.playsImmediately = playsImmediately
    }

    /// The participant that issued it.
    public var originator: CoordinatedPlaybackParticipant.ID { timestamp.participant }

    /// When it was issued, on the group clock.
    public var issuedAt: Duration { timestamp.issuedAt }
}
