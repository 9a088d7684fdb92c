/// A member of a coordinated group as the other members see it, like
/// `AVCoordinatedPlaybackParticipant` (research/coordination.md §1.4).
///
/// The coordinator keeps one per remote participant in
/// ``PlaybackCoordinatorStateMachine/otherParticipants``, for UI: who is ready, who is suspended and
/// why, and which item each one plays.
public struct CoordinatedPlaybackParticipant: Sendable, Hashable, Identifiable {
    /// A participant's identity, stable across reconnections.
    ///
    /// A string rather than Apple's UUID so that ties between concurrent commands break the same way
    /// everywhere and tests can name participants (`"alice"`). Ordered by its raw value.
    public struct ID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible,
        ExpressibleByStringLiteral
    {
        /// The identity as text.
        public var rawValue: String

        /// An identity from its text.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// An identity from a string literal, as in `"alice"`.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// Orders identities by their text, the tie-breaker of ``CoordinationTimestamp``.
        public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The raw text.
        public var description: String { rawValue }
    }

    /// Who this is.
    public var id: ID
    /// Whether its player can start playing its current item at the group's time.
    public var isReadyToPlay: Bool
    /// Why it is not taking part in the group's playback at the moment; empty when it is.
    public var suspensionReasons: [CoordinatedPlaybackSuspension.Reason]
    /// The item it plays (``PlaybackCoordinatorStateMachine/currentItemIdentifier`` on its side).
    public var itemIdentifier: String?

    /// A participant description.
    public init(
        id: ID,
        isReadyToPlay: Bool,
        suspensionReasons: [CoordinatedPlaybackSuspension.Reason] = [],
        itemIdentifier: String? = nil
    ) {
        self.id = id
        self.isReadyToPlay = isReadyToPlay
        self.suspensionReasons = suspensionReasons
        self.itemIdentifier = itemIdentifier
    }

    /// Apple's name for ``id``.
    public var identifier: ID { id }
}
