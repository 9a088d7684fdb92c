import MediaTime

/// A period during which the local player does not take part in the group's playback, like
/// `AVCoordinatedPlaybackSuspension` (research/coordination.md §1.3).
///
/// Begin one with ``PlaybackCoordinatorStateMachine/beginSuspension(for:at:)``; the coordinator
/// neither follows the group's commands nor sends any while a suspension is active. Ending the last
/// one with ``end(in:at:)`` moves the local player to the group's time; ending it with
/// ``end(proposingNewTime:in:at:)`` moves the group to the proposed time instead.
///
/// The token is a value: the coordinator it came from is passed in explicitly, because the
/// coordinator is a state machine value too, not an object the token could hold.
public struct CoordinatedPlaybackSuspension: Sendable, Hashable, Identifiable {
    /// Why a participant is suspended: one of Apple's reasons or a custom string
    /// (`NS_TYPED_EXTENSIBLE_ENUM` in Apple's SDK). The reason is shared with the group.
    public struct Reason: RawRepresentable, Sendable, Hashable, CustomStringConvertible,
        ExpressibleByStringLiteral
    {
        /// The reason's text; Apple's reasons use their Swift names.
        public var rawValue: String

        /// A reason from its text, for example `"com.example.catch-up"`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A reason from a string literal.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// The text.
        public var description: String { rawValue }

        /// The participant's audio session was interrupted.
        public static let audioSessionInterrupted: Reason = "audioSessionInterrupted"
        /// The player is buffering data after a stall.
        public static let stallRecovery: Reason = "stallRecovery"
        /// The participant is presented with interstitial content instead of the main content
        /// (a stitched ad range or an interstitial break whose content may vary).
        public static let playingInterstitial: Reason = "playingInterstitial"
        /// The participant cannot participate in coordinated playback.
        public static let coordinatedPlaybackNotPossible: Reason = "coordinatedPlaybackNotPossible"
        /// The participant's player is in a state that needs the user to act before it can resume.
        public static let userActionRequired: Reason = "userActionRequired"
        /// The participant is actively changing the current time (scrubbing). The only reason that
        /// makes the group wait by default.
        public static let userIsChangingCurrentTime: Reason = "userIsChangingCurrentTime"
    }

    /// The suspension's serial number in its coordinator.
    public let id: Int
    /// Why the participant is suspended; shared with the other participants.
    public let reason: Reason
    /// When it began, on the group clock (Apple's `beginDate`).
    public let beginGroupTime: Duration

    init(id: Int, reason: Reason, beginGroupTime: Duration) {
        self.id = id
        self.reason = reason
        self.beginGroupTime = beginGroupTime
    }

    /// Ends the suspension. If it was the last one, the local player moves to the group's current
    /// time and rate (Apple's `end()`).
    public func end(in coordinator: inout PlaybackCoordinatorStateMachine, at groupTime: Duration)
        -> [PlaybackCoordinatorStateMachine.Action]
    {
        coordinator.end(self, at: groupTime)
    }

    /// Ends the suspension and, if it was the last one, proposes `time` (on the local item's
    /// timeline) to the group without changing the group's rate: the group moves to the local
    /// player (Apple's `end(proposingNewTime:)`). When other suspensions remain the time is ignored.
    public func end(
        proposingNewTime time: PlaybackPosition,
        in coordinator: inout PlaybackCoordinatorStateMachine,
        at groupTime: Duration
    ) -> [PlaybackCoordinatorStateMachine.Action] {
        coordinator.end(self, proposingNewTime: time, at: groupTime)
    }
}
