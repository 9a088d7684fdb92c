import MediaTime

/// What coordinators tell each other. The network layer carries these as bytes (their wire form,
/// ``init(wire:)``, is in `Codec/`), reliably and in order per sender; the coordinator tolerates duplicates and
/// reordering anyway (stale states and updates are ignored).
public enum CoordinationMessage: Sendable, Hashable {
    /// A coordinated rate change or seek, or the sender's current group state for an item (sent to
    /// a joiner). The receiver keeps it if its timestamp is greater than what it has.
    case playbackState(CoordinatedPlaybackState)
    /// The sender's own state: item, readiness, suspensions and the intervals that hold the group.
    case participantState(ParticipantStateUpdate)
    /// The sender's local breaks (S1.11).
    case adSchedule(AdSchedule)
    /// The sender joined or reconnected and asks everyone for their state.
    case hello(CoordinatedPlaybackParticipant.ID)
}

/// A participant's complete state, sent whenever it changes (each update replaces the previous one,
/// so a lost or duplicated update does no harm once a later one arrives).
public struct ParticipantStateUpdate: Sendable, Hashable {
    /// Who.
    public var participant: CoordinatedPlaybackParticipant.ID
    /// Increases with every update from this participant; older updates are ignored.
    public var sequence: UInt64
    /// The item it plays.
    public var itemIdentifier: String?
    /// Whether its player is ready to play.
    public var isReadyToPlay: Bool
    /// Its active suspensions' reasons.
    public var suspensionReasons: [CoordinatedPlaybackSuspension.Reason]
    /// The intervals during which it holds (or held) the group, since the group's current state.
    public var waitIntervals: [WaitInterval]
    /// Its item's content duration without stitched ads (VOD), for the S1.7 check.
    public var contentDuration: MediaTime?
    /// The durations of the breaks it plays in sync with the group, by event identifier.
    public var sharedBreakDurations: [String: MediaTime]

    /// An update.
    public init(
        participant: CoordinatedPlaybackParticipant.ID,
        sequence: UInt64,
        itemIdentifier: String?,
        isReadyToPlay: Bool,
        suspensionReasons: [CoordinatedPlaybackSuspension.Reason],
        waitIntervals: [WaitInterval],
        contentDuration: MediaTime?,
        sharedBreakDurations: [String: MediaTime]
    ) {
        self.participant = participant
        self.sequence = sequence
        self.itemIdentifier = itemIdentifier
        self.isReadyToPlay = isReadyToPlay
        self.suspensionReasons = suspensionReasons
        self.waitIntervals = waitIntervals
        self.contentDuration = contentDuration
        self.sharedBreakDurations = sharedBreakDurations
    }

    /// The participant as UI shows it.
    public var participantDescription: CoordinatedPlaybackParticipant {
        CoordinatedPlaybackParticipant(
            id: participant,
            isReadyToPlay: isReadyToPlay,
            suspensionReasons: suspensionReasons,
            itemIdentifier: itemIdentifier
        )
    }
}
