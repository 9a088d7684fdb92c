import MediaTime

extension DelegatingPlaybackCoordinator {
    /// A command for the app's player (Apple's `AVDelegatingPlaybackCoordinatorPlaybackControlCommand`
    /// subclasses, research/coordination.md §1.6, plus ``RateAdjustmentCommand``). Host-clock times
    /// are on the host clock the app reports its player's position with.
    public enum Command: Sendable, Hashable {
        /// Play at a rate from a time at a host time.
        case play(PlayCommand)
        /// Pause, possibly buffering for a coming play.
        case pause(PauseCommand)
        /// Seek and stay still (a play command follows when the group resumes).
        case seek(SeekCommand)
        /// Buffer where the player stands for a coming play.
        case buffering(BufferingCommand)
        /// Change the playback rate only, to keep pace with the group (beyond Apple's set).
        case adjustRate(RateAdjustmentCommand)

        /// The participant whose action the command carries out; `nil` for the local participant
        /// or a command re-applying the group's state.
        public var originator: CoordinatedPlaybackParticipant.ID? {
            switch self {
            case .play(let command): return command.originator
            case .pause(let command): return command.originator
            case .seek(let command): return command.originator
            case .buffering(let command): return command.originator
            case .adjustRate(let command): return command.originator
            }
        }

        /// The item the command is for; a player on another item ignores it (Apple: the command is
        /// obsolete).
        public var expectedCurrentItemIdentifier: String {
            switch self {
            case .play(let command): return command.expectedCurrentItemIdentifier
            case .pause(let command): return command.expectedCurrentItemIdentifier
            case .seek(let command): return command.expectedCurrentItemIdentifier
            case .buffering(let command): return command.expectedCurrentItemIdentifier
            case .adjustRate(let command): return command.expectedCurrentItemIdentifier
            }
        }
    }

    /// Play at ``rate`` so that the item is at ``itemTime`` at ``hostClockTime`` (Apple's
    /// `AVDelegatingPlaybackCoordinatorPlayCommand`). A host time in the past means playback should
    /// have started then: start at the time the anchor gives for now. If the player cannot, it
    /// begins a `stallRecovery` suspension.
    public struct PlayCommand: Sendable, Hashable {
        /// Whose command this carries out (`nil`: local, or re-applied).
        public var originator: CoordinatedPlaybackParticipant.ID?
        /// The item it is for.
        public var expectedCurrentItemIdentifier: String
        /// The group's rate, never 0 (the exact rate to play at comes in a following
        /// ``RateAdjustmentCommand`` when the host clock runs at another pace than the group's).
        public var rate: Double
        /// Where the item is at ``hostClockTime``.
        public var itemTime: MediaTime
        /// When playback starts (or should have started) at ``itemTime``, on the host clock.
        public var hostClockTime: Duration

        /// A play command.
        public init(originator: CoordinatedPlaybackParticipant.ID?, expectedCurrentItemIdentifier: String, rate: Double, itemTime: MediaTime, hostClockTime: Duration) {
            self.originator = originator
            self.expectedCurrentItemIdentifier = expectedCurrentItemIdentifier
            self.rate = rate
            self.itemTime = itemTime
            self.hostClockTime = hostClockTime
        }
    }

    /// Pause (Apple's `AVDelegatingPlaybackCoordinatorPauseCommand`).
    public struct PauseCommand: Sendable, Hashable {
        /// Whose command this carries out (`nil`: local, or re-applied).
        public var originator: CoordinatedPlaybackParticipant.ID?
        /// The item it is for.
        public var expectedCurrentItemIdentifier: String
        /// Whether to keep buffering for a play at ``anticipatedPlaybackRate`` (the group waits
        /// for someone and will resume).
        public var shouldBufferInAnticipationOfPlayback: Bool
        /// The rate the group will resume at; 0 when no resumption is anticipated.
        public var anticipatedPlaybackRate: Double

        /// A pause command.
        public init(originator: CoordinatedPlaybackParticipant.ID?, expectedCurrentItemIdentifier: String, shouldBufferInAnticipationOfPlayback: Bool, anticipatedPlaybackRate: Double) {
            self.originator = originator
            self.expectedCurrentItemIdentifier = expectedCurrentItemIdentifier
            self.shouldBufferInAnticipationOfPlayback = shouldBufferInAnticipationOfPlayback
            self.anticipatedPlaybackRate = anticipatedPlaybackRate
        }
    }

    /// Seek to ``itemTime`` and stay still there: playback never resumes by itself after it, a
    /// ``PlayCommand`` follows when the group starts (Apple's `AVDelegatingPlaybackCoordinatorSeekCommand`).
    public struct SeekCommand: Sendable, Hashable {
        /// Whose command this carries out (`nil`: local, or re-applied).
        public var originator: CoordinatedPlaybackParticipant.ID?
        /// The item it is for.
        public var expectedCurrentItemIdentifier: String
        /// Where to go.
        public var itemTime: MediaTime
        /// Whether to buffer there for a play at ``anticipatedPlaybackRate``.
        public var shouldBufferInAnticipationOfPlayback: Bool
        /// The rate the group will play at from there; 0 when it stays paused.
        public var anticipatedPlaybackRate: Double
        /// The host time by which the player should be ready (the group's start), if one is set.
        /// Apple's is a `Date`; here it is on the host clock, like every other anchor.
        public var completionDueDate: Duration?

        /// A seek command.
        public init(originator: CoordinatedPlaybackParticipant.ID?, expectedCurrentItemIdentifier: String, itemTime: MediaTime, shouldBufferInAnticipationOfPlayback: Bool, anticipatedPlaybackRate: Double, completionDueDate: Duration?) {
            self.originator = originator
            self.expectedCurrentItemIdentifier = expectedCurrentItemIdentifier
            self.itemTime = itemTime
            self.shouldBufferInAnticipationOfPlayback = shouldBufferInAnticipationOfPlayback
            self.anticipatedPlaybackRate = anticipatedPlaybackRate
            self.completionDueDate = completionDueDate
        }
    }

    /// Buffer where the player stands for a play at ``anticipatedPlaybackRate`` due at
    /// ``completionDueDate`` (Apple's `AVDelegatingPlaybackCoordinatorBufferingCommand`). Not ready
    /// by then: begin a `stallRecovery` suspension (the group starts without this participant).
    public struct BufferingCommand: Sendable, Hashable {
        /// Whose command this carries out (`nil`: local, or re-applied).
        public var originator: CoordinatedPlaybackParticipant.ID?
        /// The item it is for.
        public var expectedCurrentItemIdentifier: String
        /// The rate the group will start at.
        public var anticipatedPlaybackRate: Double
        /// When the group starts, on the host clock (Apple's is a `Date`).
        public var completionDueDate: Duration?

        /// A buffering command.
        public init(originator: CoordinatedPlaybackParticipant.ID?, expectedCurrentItemIdentifier: String, anticipatedPlaybackRate: Double, completionDueDate: Duration?) {
            self.originator = originator
            self.expectedCurrentItemIdentifier = expectedCurrentItemIdentifier
            self.anticipatedPlaybackRate = anticipatedPlaybackRate
            self.completionDueDate = completionDueDate
        }
    }

    /// Play at ``rate`` from now on, keeping the position: a drift correction (the group's rate
    /// times ``multiplier``, within ±5%), or the group's rate scaled to the host clock's pace
    /// against the group clock. Apple's delegating coordinator has no such command (it corrects by
    /// re-issuing play commands); an app that ignores it stays within the coordinator's seek
    /// threshold, corrected by the occasional re-anchoring ``PlayCommand``.
    public struct RateAdjustmentCommand: Sendable, Hashable {
        /// Whose command this carries out (always `nil`: drift is local).
        public var originator: CoordinatedPlaybackParticipant.ID?
        /// The item it is for.
        public var expectedCurrentItemIdentifier: String
        /// The rate to play at now.
        public var rate: Double
        /// The drift correction's factor on the group's rate (1: none).
        public var multiplier: Double

        /// A rate adjustment.
        public init(originator: CoordinatedPlaybackParticipant.ID?, expectedCurrentItemIdentifier: String, rate: Double, multiplier: Double) {
            self.originator = originator
            self.expectedCurrentItemIdentifier = expectedCurrentItemIdentifier
            self.rate = rate
            self.multiplier = multiplier
        }
    }
}
