import MediaTime

/// What the coordinator asks of the local player (the delegating coordinator's play, pause, seek
/// and buffering commands, and the coordinated player's "waiting for coordinated playback").
///
/// Positions are on the local item's timeline (``PlaybackPosition``): the coordinator has already
/// mapped the group's coordinated time through the participant's own ads.
public enum PlaybackControlCommand: Sendable, Hashable {
    /// Play at `rate` so that the player is at `position` at `groupTime`. A group time in the future
    /// is a scheduled start: seek there and start then. One in the past means playback should have
    /// started then: start at the position the anchor gives for now. Resets any rate multiplier
    /// (the coordinator follows with ``adjustRate(multiplier:)`` when a learned trim applies).
    case play(rate: Double, position: PlaybackPosition, groupTime: Duration)
    /// Pause at `position` (seek there), or where the player is when `nil` (a remote pause when
    /// ``PlaybackCoordinatorStateMachine/pauseSnapsToMediaTimeOfOriginator`` is off).
    case pause(position: PlaybackPosition?)
    /// Stand at `position`, ready to play at `rate`, until the group resumes: the player reports
    /// "waiting to play at the specified rate" with reason "waiting for coordinated playback".
    case waitForCoordinatedPlayback(position: PlaybackPosition, rate: Double)
    /// Play at the group's rate times `multiplier` to absorb drift (1 ends a correction). Only sent
    /// while the group plays.
    case adjustRate(multiplier: Double)
    /// Set the local rate only, while suspended: the group is not affected (Apple's
    /// `coordinateRateChange` during a suspension).
    case setLocalRate(Double)
}

/// A command for the local player with what it applies to.
public struct PlaybackControl: Sendable, Hashable {
    /// What to do.
    public var command: PlaybackControlCommand
    /// The participant whose action caused it; `nil` for the local participant or for a command
    /// that re-applies the group's state (after a suspension, a join, a drift seek).
    public var originator: CoordinatedPlaybackParticipant.ID?
    /// The item it is for; a player on another item ignores it.
    public var itemIdentifier: String

    /// A control.
    public init(command: PlaybackControlCommand, originator: CoordinatedPlaybackParticipant.ID?, itemIdentifier: String) {
        self.command = command
        self.originator = originator
        self.itemIdentifier = itemIdentifier
    }
}
