import MediaTime

/// A span of group time during which a participant may hold the group: a suspension whose reason
/// triggers waiting under its coordinator's policy, or (at a start) not being ready to play.
///
/// Intervals travel in ``ParticipantStateUpdate`` and are folded by ``GroupTimeline``. The
/// participant that owns an interval decides whether it triggers waiting (its policy and
/// participant limits, evaluated when it begins) and how long the group waits at most, so that
/// every participant folds the same intervals into the same group timeline.
public struct WaitInterval: Sendable, Hashable {
    /// What holds the group.
    public enum Cause: Sendable, Hashable {
        /// A suspension with this reason.
        case suspension(CoordinatedPlaybackSuspension.Reason)
        /// The participant is not ready to play. Only holds a start (a play or a seek while
        /// playing that has not started yet, or a group that is already waiting): once the group
        /// runs, a stall does not stop it (the stalled player recovers with a suspension).
        case notReady
    }

    /// Why.
    public var cause: Cause
    /// When it began, on the group clock.
    public var start: Duration
    /// When it ended; `nil` while it lasts.
    public var end: Duration?
    /// The coordinated time at which the group should stand while it lasts: the start of the
    /// participant's local break (so that the others stop exactly where the ad begins). `nil`
    /// holds the group where it is when the interval begins.
    public var holdTime: MediaTime?
    /// The longest the group waits for it; `nil` waits as long as it lasts.
    public var waitLimit: Duration?
    /// How long the owner expects it to last (an ad's remaining duration), for UI.
    public var expectedDuration: Duration?

    /// An interval.
    public init(
        cause: Cause,
        start: Duration,
        end: Duration? = nil,
        holdTime: MediaTime? = nil,
        waitLimit: Duration? = nil,
        expectedDuration: Duration? = nil
    ) {
        self.cause = cause
        self.start = start
        self.end = end
        self.holdTime = holdTime
        self.waitLimit = waitLimit
        self.expectedDuration = expectedDuration
    }

    /// When the group stops waiting for it: its end, or its start plus the wait limit, whichever
    /// comes first; `nil` while it lasts without a limit.
    public var effectiveEnd: Duration? {
        let limited = waitLimit.map { start + $0 }
        switch (end, limited) {
        case (let end?, let limited?): return min(end, limited)
        case (let end?, nil): return end
        case (nil, let limited?): return limited
        case (nil, nil): return nil
        }
    }
}
