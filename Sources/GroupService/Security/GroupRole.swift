import GroupCoordination

/// What a participant may do in a group session (the wire's ``SessionRole``): a viewer follows
/// playback; a controller also plays, pauses, seeks and changes what plays; an owner also invites
/// others.
public typealias GroupRole = SessionRole

extension SessionRole {
    /// Whether it may play, pause, seek and change the rate for the group.
    public var mayControlPlayback: Bool { self != .viewer }
    /// Whether it may invite others (create sessions, revoke invitations).
    public var mayInvite: Bool { self == .owner }
}
