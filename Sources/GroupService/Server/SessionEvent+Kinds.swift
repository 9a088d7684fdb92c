import GroupCoordination

/// What a sequenced event says: a coordination message from a participant, a custom message, or
/// a change of presence that the server itself sequences.
public enum SequencedBody: Sendable, Hashable {
    /// A coordinator's message, relayed as its sender wrote it.
    case message(CoordinationMessage)
    /// An application message (the messenger's custom messages): a type name and a JSON body the
    /// server does not read.
    case custom(messageType: String, body: String)
    /// Someone joined, left, was lost or came back.
    case presence(PresenceChange)

    /// Events with the same key replace one another in a session's snapshot; `nil`: kept only in
    /// the log.
    func retainKey(sender: String) -> String? {
        switch self {
        case .message(.playbackState(let state)): "playbackState/\(state.itemIdentifier)"
        case .message(.participantState): "participantState/\(sender)"
        case .message(.adSchedule(let schedule)): "adSchedule/\(sender)/\(schedule.itemIdentifier)"
        case .message(.hello): nil
        case .custom: nil
        case .presence(let change): "presence/\(change.participant)"
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

/// A participant's arrival, departure or return, as every member learns it.
public struct PresenceChange: Sendable, Hashable {
    /// What happened.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// It joined the session for the first time.
        case joined
        /// It left for good (`leave`).
        case left
        /// It went silent for two keep-alive intervals, or its connection dropped: the group stops
        /// waiting for it, and it may come back with its resume secret.
        case lost
        /// It came back after being lost, and goes on where the group is.
        case returned
    }

    /// Who.
    public var participant: String
    /// The name it gave.
    public var name: String
    /// Its role.
    public var role: GroupRole
    /// What happened.
    public var state: State

    /// A change.
    public init(participant: String, name: String, role: GroupRole, state: State) {
        self.participant = participant
        self.name = name
        self.role = role
        self.state = state
    }
}

/// One change in a session's order: its version, who caused it and what it says.
public struct SequencedEvent: Sendable, Hashable {
    /// The session's version after this event (1 for the first).
    public var version: UInt64
    /// The participant that sent it; empty for the server's own events (presence).
    public var sender: String
    /// What it says.
    public var body: SequencedBody

    /// An event.
    public init(version: UInt64, sender: String, body: SequencedBody) {
        self.version = version
        self.sender = sender
        self.body = body
    }
}
