/// What a participant may do in a group session, ordered by what it allows: each role may do
/// everything the roles before it may.
public enum GroupRole: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Follows playback.
    case viewer
    /// Also plays, pauses, seeks and changes what plays.
    case controller
    /// Also invites others and changes roles.
    case owner

    public var mayControlPlayback: Bool { self >= .controller }
    public var mayInvite: Bool { self == .owner }

    public static func < (lhs: GroupRole, rhs: GroupRole) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .controller: 1
        case .owner: 2
        }
    }
}
