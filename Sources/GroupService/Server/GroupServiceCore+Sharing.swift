import GroupCoordination
import GroupWire

/// Several server processes sharing one store (``SharedSessionStore``): each core keeps the
/// sessions that it has members in, learns what the others committed (in version order), and
/// marks the participants of a process that stopped as lost.
extension GroupServiceCore {
    /// What another process committed to one session (or what the store's log holds), to take in.
    public struct Catch: Sendable {
        /// The session.
        public var session: String
        /// The events, oldest first (those this core has are skipped).
        public var events: [SessionEvent]
        /// The command ids of those events: `(sender, id, version)`.
        public var commands: [(sender: String, id: String, version: UInt64)]
        /// Participants as the store now has them (all of them, or the ones that changed).
        public var participants: [Participant]
        /// Whether the session has ended.
        public var isEnded: Bool

        /// A change to take in.
        public init(session: String, events: [SessionEvent], commands: [(sender: String, id: String, version: UInt64)], participants: [Participant], isEnded: Bool) {
            self.session = session
            self.events = events
            self.commands = commands
            self.participants = participants
            self.isEnded = isEnded
        }
    }

    /// Takes in what the store says of a session this core holds: the events after its version
    /// are applied in order and sent to this process's members; participants are updated, and a
    /// member whose participant another process now holds (it resumed there, or was marked lost
    /// there) is disconnected here. Returns `false` in `isWhole` when an event is missing before
    /// the first new one (the caller must read the log from the core's version).
    public mutating func takeIn(_ change: Catch, at now: Duration) -> (outputs: [Output], isWhole: Bool) {
        guard var session = sessions[change.session] else { return ([], true) }
        var outputs: [Output] = []
        let commands = Dictionary(change.commands.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        var applied: [SessionEvent] = []
        for event in change.events.sorted(by: { $0.version < $1.version }) where event.version > session.version {
            guard event.version == session.version + 1 else {
                sessions[change.session] = session
                return (outputs + applied.flatMap { fanOut($0, in: change.session, except: nil) }, false)
            }
            session.restore(event, logLength: configuration.logLength)
            if let command = commands[event.version] {
                session.remember(command: command.id, from: command.sender, version: command.version, limit: configuration.rememberedCommands)
            }
            applied.append(event)
        }
        for var participant in change.participants {
            let current = session.participants[participant.id]
            if let connection = current?.connection {
                if participant.state == .present, participant.node == configuration.node {
                    participant.connection = connection
                    participant.lastSeen = max(participant.lastSeen, current?.lastSeen ?? participant.lastSeen)
                } else {
                    // Another process holds this participant now: this connection is stale.
                    connections[connection]?.member = nil
                    let reason = participant.state == .present ? "resumed on another server" : "marked \(participant.state.rawValue) by another server"
                    outputs.append(.close(connection, code: 1001, reason: reason))
                }
            } else if participant.state == .present, participant.node == configuration.node, let current, current.state != .present {
                // This process's own participant, left or lost here already: the older record is stale.
                participant = current
            }
            if participant.connection == nil, participant.node == configuration.node, participant.state == .present {
                // Present on this process by the record but with no connection here (it went away
                // in a turn this change predates): it is checked as any silent participant is.
                participant.lastSeen = min(participant.lastSeen, now)
            }
            session.participants[participant.id] = participant
            if let number = Int(participant.id.dropFirst()), participant.id.first == "p" {
                session.nextParticipantNumber = max(session.nextParticipantNumber, number + 1)
            }
        }
        sessions[change.session] = session
        for event in applied { outputs += fanOut(event, in: change.session, except: nil) }
        if change.isEnded, !session.isEnded {
            outputs += closeEnded(change.session)
        }
        return (outputs, true)
    }

    /// Marks a session ended and tells its members here and disconnects them (4004); nothing is
    /// written (``endSession(_:at:)`` writes the end; a session another process ended is only
    /// closed here).
    mutating func closeEnded(_ id: String) -> [Output] {
        guard var session = sessions[id] else { return [] }
        session.isEnded = true
        var outputs: [Output] = []
        for participant in session.participants.values.sorted(by: { $0.id < $1.id }) {
            guard let connection = participant.connection else { continue }
            outputs.append(.send(connection, .error(SessionError(code: .sessionEnded, message: "the session was ended"))))
            outputs.append(.close(connection, code: 4004, reason: "session ended"))
            connections[connection]?.member = nil
            session.participants[participant.id]?.connection = nil
        }
        sessions[id] = session
        return outputs
    }

    /// The processes other than this one that hold present participants of the sessions here.
    public var otherNodes: Set<String> {
        var nodes = Set<String>()
        for session in sessions.values where !session.isEnded {
            for participant in session.participants.values where participant.state == .present {
                if let node = participant.node, node != configuration.node { nodes.insert(node) }
            }
        }
        return nodes
    }

    /// The processes in `nodes` stopped: their present participants are lost (each process that
    /// notices writes this; the store's version check lets one of them through, and the others
    /// find the participants lost when they catch up).
    public mutating func nodesStopped(_ nodes: Set<String>, at now: Duration) -> [Output] {
        var outputs: [Output] = []
        for sessionID in sessions.keys.sorted() {
            guard let session = sessions[sessionID], !session.isEnded else { continue }
            for participant in session.participants.values.sorted(by: { $0.id < $1.id })
            where participant.state == .present && participant.connection == nil && participant.node.map(nodes.contains) == true {
                outputs += markLost(participant.id, in: sessionID, reason: "its server \(participant.node ?? "") stopped", at: now)
            }
        }
        return outputs
    }

    /// The sessions that a connection of this process is a member of.
    public var sessionsWithMembersHere: Set<String> {
        Set(connections.values.compactMap(\.session))
    }

    /// Forgets a session that nobody here is a member of (the store keeps it).
    public mutating func forget(_ id: String) {
        guard !connections.values.contains(where: { $0.session == id }) else { return }
        sessions[id] = nil
    }
}

extension GroupServiceCore {
    /// Puts a session back as the store has it when its log no longer reaches this core's
    /// version: the stored session replaces the one here, and this process's members stay
    /// connected (those whose participant the store still has present here); the events they
    /// missed cannot be sent one by one, so each is sent a fresh welcome with the snapshot.
    public mutating func replace(
        _ session: Session, events: [SessionEvent], commands: [(sender: String, id: String, version: UInt64)],
        participants: [Participant], at now: Duration
    ) -> [Output] {
        let previous = sessions[session.id]
        restore(session, events: events, commands: commands, participants: participants, at: now)
        guard let previous, var current = sessions[session.id] else { return [] }
        var outputs: [Output] = []
        for old in previous.participants.values.sorted(by: { $0.id < $1.id }) {
            guard let connection = old.connection else { continue }
            guard var participant = current.participants[old.id], participant.state == .present, participant.node == configuration.node else {
                connections[connection]?.member = nil
                outputs.append(.close(connection, code: 1001, reason: "held by another server"))
                continue
            }
            participant.connection = connection
            participant.lastSeen = old.lastSeen
            current.participants[old.id] = participant
        }
        sessions[session.id] = current
        for participant in current.participants.values.sorted(by: { $0.id < $1.id }) {
            guard let connection = participant.connection else { continue }
            outputs.append(.send(connection, .welcome(SessionWelcome(
                session: current.id, participant: .init(rawValue: participant.id), role: participant.role, secret: "", stream: current.stream,
                keepAlive: configuration.keepAliveInterval, version: current.version, snapshot: current.snapshot,
                participants: current.presentParticipants))))
        }
        return outputs
    }
}
