import GroupWire

/// What a participant may do in a session (docs/group-protocol.md, "Roles").
public enum SessionRole: String, Sendable, Hashable, CaseIterable, WireCodable {
    /// Plays, pauses, seeks, changes items, and invites.
    case owner
    /// Plays, pauses, seeks and changes items.
    case controller
    /// Follows: its rate and seek commands are refused with `forbidden`.
    case viewer

    /// `"owner"`, `"controller"` or `"viewer"`.
    public init(wire: WireValue) throws(WireDecodingError) {
        let text = try WireFields.string(wire, maximumBytes: WireBounds.maximumIdentifierBytes)
        guard let role = SessionRole(rawValue: text) else { throw WireDecodingError(path: [], kind: .unknownValue(text)) }
        self = role
    }

    public var wire: WireValue { .string(rawValue) }
}
