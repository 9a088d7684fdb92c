import HLSInterstitials
import MediaTime

/// What an observer shows of a ``Player``, read from the machine in one piece at one host time,
/// so that its parts never disagree (a transport bar's time, its break and its status come from
/// the same moment).
///
/// ``Player/state`` reads it at the current host time; ``Player/states()`` publishes it each
/// time the player handles an input and the value changed, in order with the player's events.
public struct PlayerState: Sendable, Hashable {
    /// The host time the value was read at.
    public var hostTime: Duration
    /// The item playing (`nil`: none).
    public var item: PlayerItem?
    /// The current item's status (``ItemStatus/failed(_:)`` carries the error).
    public var itemStatus: ItemStatus
    /// Whether the playhead moves, and if not why.
    public var timeControlStatus: TimeControlStatus
    /// The rate asked for (0 when paused).
    public var rate: Double
    /// Where playback is: primary content at a time, or a break at an offset.
    public var position: IntegratedTimeline.Position
    /// The primary item's time (it stands still while a break plays).
    public var currentTime: MediaTime
    /// The integrated timeline's time.
    public var integratedCurrentTime: MediaTime
    /// The primary item's duration: `indefinite` for live, `nil` until known.
    public var duration: MediaTime?
    /// The item's integrated timeline (`nil` until its playlist is loaded).
    public var snapshot: IntegratedTimeline.Snapshot?
    /// The interstitial event whose break plays now.
    public var currentEvent: InterstitialEvent?
    /// How far into the current break playback is.
    public var currentEventOffset: MediaTime?
    /// Whether the current break can be skipped now.
    public var isCurrentEventSkippable: Bool
    /// Whether the item played to its end.
    public var hasPlayedToEnd: Bool

    /// The error the item failed with, if it did.
    public var error: PlayerError? {
        if case .failed(let error) = itemStatus { return error }
        return nil
    }
}

extension PlaybackMachine {
    /// The machine's state as of its last input (its host time is that input's).
    ///
    /// - Complexity: O(s) in the number of schedule items (the snapshot).
    public var playerState: PlayerState {
        PlayerState(
            hostTime: now,
            item: item,
            itemStatus: status,
            timeControlStatus: lastStatus,
            rate: timeControl.requestedRate,
            position: position,
            currentTime: primaryPosition,
            integratedCurrentTime: integratedTime,
            duration: duration,
            snapshot: snapshot(),
            currentEvent: current?.scheduled.event,
            currentEventOffset: current.map { breakOffset($0) },
            isCurrentEventSkippable: current?.skippable ?? false,
            hasPlayedToEnd: hasPlayedToEnd
        )
    }
}
