/// A participant's role in a session: what it may do to the group's playback.
public enum GroupRole: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Watches; its play, pause and seek are refused.
    case viewer
    /// Plays, pauses and seeks for the group.
    case controller
    /// A controller that may also invite.
    case owner

    /// Whether it may play, pause, seek and change the rate.
    public var mayControlPlayback: Bool { self != .viewer }
    /// Whether it may invite others.
    public var mayInvite: Bool { self == .owner }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
