import GroupCoordination

extension SessionEvent.Body {
    /// Events with the same key replace one another in a session's snapshot; `nil`: kept only in
    /// the log.
    func retainKey(sender: String) -> String? {
        switch self {
        case .message(.playbackState(let state)): "playbackState/\(state.itemIdentifier)"
        case .message(.participantState): "participantState/\(sender)"
        case .message(.adSchedule(let schedule)): "adSchedule/\(sender)/\(schedule.itemIdentifier)"
        case .message(.hello): nil
        case .custom: nil
        case .presence(let presence): "presence/\(presence.participant.rawValue)"
        }
    }

    /// The kind's name, as the store and the logs show it.
    var kind: String {
        switch self {
        case .message(.playbackState): "playbackState"
        case .message(.participantState): "participantState"
        case .message(.adSchedule): "adSchedule"
        case .message(.hello): "hello"
        case .custom: "custom"
        case .presence: "presence"
        }
    }
}

extension SessionEvent {
    /// The sender as the server keys it (empty for the server's own events).
    var senderKey: String { sender.rawValue }
}
