import GroupWire
/// A coordinator's message on the wire, with the participant that sent it: a transport knows
/// peers, the coordinator knows participants, and the envelope ties the two together (a reply to a
/// joiner goes to the peer its hello came from).
public struct CoordinationEnvelope: GroupMessage, Hashable {
    /// The type name on the wire.
    public static let messageType = "coordination.message"
    /// Who sent it.
    public var sender: CoordinatedPlaybackParticipant.ID
    /// What it says.
    public var message: CoordinationMessage

    /// `message` from `sender`.
    public init(sender: CoordinatedPlaybackParticipant.ID, message: CoordinationMessage) {
        self.sender = sender
        self.message = message
    }
}

extension GroupMessageRegistry {
    /// The types a coordinated participant needs: clock probes, their replies and coordination
    /// envelopes.
    public static let coordination = GroupMessageRegistry([ClockProbe.self, ClockProbeReply.self, CoordinationEnvelope.self])
}
