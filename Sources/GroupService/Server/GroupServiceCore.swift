import GroupCoordination
import GroupWire
import MediaTime

/// The group-session server as a pure state machine: sessions, admission, roles, the per-session
/// order (a version number per event), idempotent commands, presence with keep-alive, resumption
/// and limits. A shell (``GroupServer``) feeds it what the sockets and the clock say, commits
/// ``takeWrites()`` to the store, and only then performs the outputs, so that nothing reaches a
/// participant before it is durable (`docs/group-protocol.md`).
///
/// Times are the server's wall clock as a `Duration` since the Unix epoch (it survives a
/// restart); each session's group clock counts from the session's creation, so that every group
/// time a participant sees is small.
public struct GroupServiceCore: Sendable {
    /// Limits and intervals.
    public struct Configuration: Sendable, Hashable {
        /// How often a participant must send something.
        public var keepAliveInterval: Duration = .seconds(2)
        /// How many intervals of silence make a participant lost.
        public var missedKeepAlivesBeforeLost = 2
        /// How long a connection may stay open without a `hello`.
        public var helloTimeout: Duration = .seconds(10)
        /// Participants present at once in a session.
        public var maximumParticipants = 50
        /// Messages a connection may send per second, sustained.
        public var messagesPerSecond = 50
        /// Messages a connection may send in a burst.
        public var messageBurst = 100
        /// Malformed messages in a row before the connection is closed (1007).
        public var malformedMessagesBeforeClose = 3
        /// Events kept in memory per session for resumption and gap repair (older ones: the
        /// snapshot).
        public var logLength = 1_000
        /// Command ids remembered per session for idempotency.
        public var rememberedCommands = 4_096
        /// How long after a departure a viewer's coordinator may re-anchor the group's state
        /// (restating it where the group stands, as every coordinator does when a participant
        /// that shaped the timeline leaves).
        public var reanchorWindow: Duration = .seconds(10)
        /// This process's name among several that share one store (`nil`: it is alone). Each
        /// checks the keep-alives of the participants it holds the connections of, and no other.
        public var node: String?

        /// The defaults.
        public init() {}

        var lostAfter: Duration { keepAliveInterval * missedKeepAlivesBeforeLost }
    }

    /// What the shell must do, in order.
    public enum Output: Sendable, Hashable {
        /// Send `message` on `connection`.
        case send(ServiceConnectionID, SessionServerMessage)
        /// Close `connection` with a WebSocket close code and reason (after what was sent before).
        case close(ServiceConnectionID, code: UInt16, reason: String)
        /// One line for the session log.
        case log(ServiceLogEntry)
        /// A participant reported its skew and clock round trip (for the metrics), and where it
        /// is (for the web view).
        case participantReport(session: String, participant: String, ParticipantReport)
    }

    /// A session as the core keeps it.
    public struct Session: Sendable, Hashable {
        /// Its identifier.
        public var id: String
        /// The stream it plays.
        public var stream: String
        /// When it was created: its group clock's zero, on the server's wall clock.
        public var epoch: Duration
        /// The last event's version.
        public private(set) var version: UInt64 = 0
        /// Whether it was ended.
        public var isEnded = false
        /// The newest event of each retain key.
        public private(set) var retained: [String: SessionEvent] = [:]
        /// The newest events, oldest first (at most the configured log length).
        public private(set) var log: [SessionEvent] = []
        /// Its participants, present or not.
        public var participants: [String: Participant] = [:]
        var commandVersions: [String: UInt64] = [:]
        var commandOrder: [String] = []
        var commandOrderHead = 0
        var lastDeparture: Duration?
        var nextParticipantNumber = 1

        /// A session.
        public init(id: String, stream: String, epoch: Duration) {
            self.id = id
            self.stream = stream
            self.epoch = epoch
        }

        /// The participants present, as a welcome lists them.
        public var presentParticipants: [SessionWelcome.Participant] {
            participants.values.filter { $0.state == .present }.sorted { $0.id < $1.id }
                .map { SessionWelcome.Participant(participant: .init(rawValue: $0.id), name: $0.name, role: $0.role) }
        }

        /// The snapshot: the retained events in version order.
        public var snapshot: [SessionEvent] { retained.values.sorted { $0.version < $1.version } }

        /// The participants present now.
        public var presentCount: Int { participants.values.count { $0.state == .present } }

        /// Appends the next event in order.
        mutating func sequence(_ body: SessionEvent.Body, sender: String, logLength: Int) -> SessionEvent {
            version += 1
            let event = SessionEvent(version: version, sender: .init(rawValue: sender), body: body)
            restore(event, logLength: logLength)
            return event
        }

        /// Takes an event already in the order (restoring from the store).
        public mutating func restore(_ event: SessionEvent, logLength: Int) {
            version = max(version, event.version)
            if let key = event.body.retainKey(sender: event.senderKey) { retained[key] = event }
            log.append(event)
            if log.count > logLength { log.removeFirst(log.count - logLength) }
        }

        /// Remembers that `sender`'s command `id` became `version`.
        mutating func remember(command id: String, from sender: String, version: UInt64, limit: Int) {
            let key = "\(sender)\u{1F}\(id)"
            commandVersions[key] = version
            commandOrder.append(key)
            if commandOrder.count - commandOrderHead > limit {
                commandVersions[commandOrder[commandOrderHead]] = nil
                commandOrderHead += 1
                if commandOrderHead > limit {
                    commandOrder.removeFirst(commandOrderHead)
                    commandOrderHead = 0
                }
            }
        }

        func version(ofCommand id: String, from sender: String) -> UInt64? { commandVersions["\(sender)\u{1F}\(id)"] }

        /// The events after `version`, if the log still holds them all.
        func events(after version: UInt64) -> [SessionEvent]? {
            if version >= self.version { return [] }
            guard let first = log.first, first.version <= version + 1 else { return nil }
            return Array(log.drop { $0.version <= version })
        }
    }

    /// A participant as the core keeps it.
    public struct Participant: Sendable, Hashable {
        /// Whether it is connected and counted.
        public enum State: String, Sendable, Hashable {
            /// Connected (or silent for less than the keep-alive limit).
            case present
            /// Silent too long or disconnected; it may resume.
            case lost
            /// Left for good.
            case left
        }

        /// Its identity.
        public var id: String
        /// Its name.
        public var name: String
        /// Its role.
        public var role: GroupRole
        /// Its resume secret's SHA-256, hex.
        public var secretHash: String
        /// Its state.
        public var state: State
        /// When it last sent something (server wall clock).
        public var lastSeen: Duration
        /// When it joined.
        public var joinedAt: Duration
        /// Its connection while present (on this process).
        public var connection: ServiceConnectionID?
        /// The process that holds its connection, when several share the store.
        public var node: String?

        /// A participant.
        public init(id: String, name: String, role: GroupRole, secretHash: String, state: State, lastSeen: Duration, joinedAt: Duration? = nil) {
            self.id = id
            self.name = name
            self.role = role
            self.secretHash = secretHash
            self.state = state
            self.lastSeen = lastSeen
            self.joinedAt = joinedAt ?? lastSeen
        }
    }

    struct Connection: Sendable, Hashable {
        var openedAt: Duration
        var member: (session: String, participant: String)? {
            get { session.map { ($0, participant) } }
            set {
                session = newValue?.session
                participant = newValue?.participant ?? ""
            }
        }
        var session: String?
        var participant = ""
        var tokens: Double
        var refilledAt: Duration
        var malformedInARow = 0
    }

    /// What must be durable before the outputs of the same inputs are performed.
    public struct Writes: Sendable {
        /// Sessions created.
        public var newSessions: [Session] = []
        /// Events, with their session, in order.
        public var events: [(session: String, event: SessionEvent, commandID: String?)] = []
        /// Participants added or changed, with their session.
        public var participants: [(session: String, participant: Participant)] = []
        /// Sessions ended.
        public var endedSessions: [String] = []

        /// Whether there is nothing to write.
        public var isEmpty: Bool { newSessions.isEmpty && events.isEmpty && participants.isEmpty && endedSessions.isEmpty }
    }

    /// The limits.
    public let configuration: Configuration
    /// The sessions, by identifier.
    public internal(set) var sessions = JournaledTable<String, Session>()
    var connections = JournaledTable<ServiceConnectionID, Connection>()
    private var writes = Writes()
    /// Messages refused, by code (for the metrics).
    public private(set) var refusals: [SessionError.Code: Int] = [:]

    /// A server with no sessions.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Open connections.
    public var connectionCount: Int { connections.count }

    /// Participants present in all sessions.
    public var presentParticipantCount: Int { sessions.values.reduce(0) { $0 + $1.presentCount } }

    // MARK: - Turns

    /// Opens a turn: what the inputs until ``commitTurn()`` or ``rollBackTurn()`` change of the
    /// sessions and connections is noted, so that the shell can undo it when the store refuses
    /// the turn's writes.
    public mutating func beginTurn() {
        sessions.begin()
        connections.begin()
    }

    /// Keeps what the turn changed.
    public mutating func commitTurn() {
        sessions.commit()
        connections.commit()
    }

    /// Puts the sessions and connections back as they were when the turn began, and drops its
    /// writes.
    public mutating func rollBackTurn() {
        sessions.rollBack()
        connections.rollBack()
        writes = Writes()
    }

    /// The durable changes since the last call.
    public mutating func takeWrites() -> Writes {
        defer { writes = Writes() }
        return writes
    }

    /// A session's group clock at server time `now`.
    public func groupTime(of session: String, at now: Duration) -> Duration? {
        sessions[session].map { now - $0.epoch }
    }

    // MARK: - Restoring

    /// Takes a session read back from the store: its record, its retained events (and any newer
    /// log) and its participants, who are all counted as lost until they reconnect (their
    /// keep-alive clock starts at `now`, so a participant that does not come back is reported lost
    /// after the usual interval, not at once).
    public mutating func restore(
        _ session: Session, events: [SessionEvent], commands: [(sender: String, id: String, version: UInt64)] = [],
        participants: [Participant], at now: Duration
    ) {
        var session = session
        for event in events.sorted(by: { $0.version < $1.version }) { session.restore(event, logLength: configuration.logLength) }
        for command in commands.sorted(by: { $0.version < $1.version }) {
            session.remember(command: command.id, from: command.sender, version: command.version, limit: configuration.rememberedCommands)
        }
        for var participant in participants {
            participant.connection = nil
            if participant.state == .present { participant.lastSeen = now }
            session.participants[participant.id] = participant
            if let number = Int(participant.id.dropFirst()), participant.id.first == "p" {
                session.nextParticipantNumber = max(session.nextParticipantNumber, number + 1)
            }
        }
        sessions[session.id] = session
    }

    // MARK: - Sessions

    /// Creates a session (idempotent: creating an existing one again changes nothing).
    public mutating func createSession(id: String, stream: String, at now: Duration) -> [Output] {
        guard sessions[id] == nil else { return [] }
        // The epoch is kept in whole milliseconds, as the store keeps it, so that a restored
        // session's group clock reads the same.
        let session = Session(id: id, stream: stream, epoch: .milliseconds(now / .milliseconds(1)))
        sessions[id] = session
        writes.newSessions.append(session)
        return [.log(ServiceLogEntry(at: now, session: id, event: "session.created", fields: ["stream": stream]))]
    }

    /// Ends a session: everyone connected is told and disconnected (4004).
    public mutating func endSession(_ id: String, at now: Duration) -> [Output] {
        guard let session = sessions[id], !session.isEnded else { return [] }
        var outputs = closeEnded(id)
        writes.endedSessions.append(id)
        outputs.append(.log(ServiceLogEntry(at: now, session: id, event: "session.ended")))
        return outputs
    }

    // MARK: - Connections

    /// A connection opened; it must say `hello` within the hello timeout.
    public mutating func opened(_ connection: ServiceConnectionID, at now: Duration) {
        connections[connection] = Connection(openedAt: now, tokens: Double(configuration.messageBurst), refilledAt: now)
    }

    /// A connection closed (either side). Its participant is lost at once: the group stops
    /// waiting for it, and it may resume.
    public mutating func closed(_ connection: ServiceConnectionID, at now: Duration) -> [Output] {
        guard let state = connections.removeValue(forKey: connection) else { return [] }
        guard let (session, participant) = state.member else { return [] }
        return markLost(participant, in: session, reason: "disconnected", at: now)
    }

    /// Counts a message against the connection's rate; `false` when it is over (the connection is
    /// then closed: the outputs say so).
    public mutating func admit(_ connection: ServiceConnectionID, at now: Duration, outputs: inout [Output]) -> Bool {
        guard var state = connections[connection] else { return false }
        let elapsed = Double((now - state.refilledAt) / .milliseconds(1)) / 1000
        state.tokens = min(Double(configuration.messageBurst), state.tokens + max(0, elapsed) * Double(configuration.messagesPerSecond))
        state.refilledAt = now
        guard state.tokens >= 1 else {
            connections[connection] = state
            let description = "more than \(configuration.messagesPerSecond) messages per second (a burst of \(configuration.messageBurst))"
            refuse(connection, .rateLimited, description, into: &outputs)
            outputs.append(.close(connection, code: 1008, reason: "rate limit"))
            outputs.append(refusalLog(connection, event: "connection.refused", code: .rateLimited, description, at: now))
            return false
        }
        state.tokens -= 1
        connections[connection] = state
        if let (session, participant) = state.member { sessions[session]?.participants[participant]?.lastSeen = now }
        return true
    }

    /// A message that could not be read, or not now: an error and a log line, and after too many
    /// `bad-message`s in a row a close (1007). Another refusal (`unknown-type`, `out-of-range`)
    /// leaves the connection open however often it comes, and ends the row.
    public mutating func malformed(_ connection: ServiceConnectionID, code: SessionError.Code, _ description: String, at now: Duration) -> [Output] {
        var outputs: [Output] = []
        guard admit(connection, at: now, outputs: &outputs) else { return outputs }
        refuse(connection, code, description, into: &outputs)
        outputs.append(refusalLog(connection, event: "message.refused", code: code, description, at: now))
        guard code == .badMessage else {
            connections[connection]?.malformedInARow = 0
            return outputs
        }
        connections[connection]?.malformedInARow += 1
        if let count = connections[connection]?.malformedInARow, count >= configuration.malformedMessagesBeforeClose {
            outputs.append(.close(connection, code: 1007, reason: "\(count) malformed messages in a row"))
            outputs.append(refusalLog(connection, event: "connection.refused", code: code, "\(count) malformed messages in a row", at: now))
        }
        return outputs
    }

    /// Refuses a connection for good (a wrong protocol version, an invalid token): an error, then
    /// a close.
    public mutating func reject(_ connection: ServiceConnectionID, code: SessionError.Code, _ description: String, closeCode: UInt16, at now: Duration) -> [Output] {
        var outputs: [Output] = []
        refuse(connection, code, description, into: &outputs)
        outputs.append(.close(connection, code: closeCode, reason: String(description.prefix(100))))
        outputs.append(refusalLog(connection, event: "connection.refused", code: code, description, at: now))
        return outputs
    }

    /// The log line of a refusal on `connection`: its session and participant when it has joined,
    /// the code, and the reason (shortened: it may quote what the peer sent).
    private func refusalLog(_ connection: ServiceConnectionID, event: String, code: SessionError.Code, _ description: String, at now: Duration) -> Output {
        var fields = ["code": code.rawValue, "reason": String(description.prefix(300))]
        if let (_, participant) = connections[connection]?.member { fields["participant"] = participant }
        return .log(ServiceLogEntry(at: now, session: connections[connection]?.session ?? "", event: event, fields: fields))
    }

    private mutating func refuse(_ connection: ServiceConnectionID, _ code: SessionError.Code, _ description: String, commandID: String? = nil, into outputs: inout [Output]) {
        refusals[code, default: 0] += 1
        outputs.append(.send(connection, .error(SessionError(code: code, message: String(description.prefix(900)), id: commandID))))
    }

    // MARK: - Admission

    /// A checked `hello`: admits a new participant, or resumes one that was lost.
    public mutating func hello(_ connection: ServiceConnectionID, _ hello: ServiceHello, at now: Duration) -> [Output] {
        var outputs: [Output] = []
        guard admit(connection, at: now, outputs: &outputs) else { return outputs }
        guard connections[connection]?.member == nil else {
            return outputs + malformed(connection, code: .badMessage, "hello was already said on this connection", at: now)
        }
        guard var session = sessions[hello.session], !session.isEnded else {
            return outputs + reject(connection, code: .sessionEnded, "no such session, or it was ended", closeCode: 4004, at: now)
        }
        connections[connection]?.malformedInARow = 0
        if let resume = hello.resume {
            guard var participant = session.participants[resume.participant], participant.state != .left,
                LibCrypto.constantTimeEqual(participant.secretHash.utf8, resume.secretHash.utf8), participant.role == hello.role
            else {
                return outputs + reject(connection, code: .unauthorized, "the resume secret does not match this session's participant", closeCode: 1008, at: now)
            }
            if let previous = participant.connection, previous != connection {
                // A second connection resumes the participant: the first one is stale.
                connections[previous]?.member = nil
                outputs.append(.close(previous, code: 1001, reason: "resumed on another connection"))
            }
            let wasLost = participant.state == .lost
            participant.state = .present
            participant.connection = connection
            participant.node = configuration.node
            participant.lastSeen = now
            session.participants[participant.id] = participant
            connections[connection]?.member = (session.id, participant.id)
            writes.participants.append((session.id, participant))
            let missed = session.events(after: resume.version)
            var welcome = SessionWelcome(
                session: session.id, participant: .init(rawValue: participant.id), role: participant.role, secret: "",
                stream: session.stream, keepAlive: configuration.keepAliveInterval,
                version: session.version, snapshot: missed ?? session.snapshot, participants: session.presentParticipants)
            sessions[session.id] = session
            if wasLost {
                let event = sequence(.presence(SessionEvent.Presence(participant: .init(rawValue: participant.id), name: participant.name, role: participant.role, state: .returned)), in: session.id, sender: Self.serverSender, commandID: nil)
                welcome.version = event.version
                if missed != nil { welcome.snapshot.append(event) } else { welcome.snapshot = sessions[session.id]!.snapshot }
                welcome.participants = sessions[session.id]!.presentParticipants
                outputs.append(.send(connection, .welcome(welcome)))
                outputs += fanOut(event, in: session.id, except: connection)
            } else {
                outputs.append(.send(connection, .welcome(welcome)))
            }
            outputs.append(.log(ServiceLogEntry(at: now, session: session.id, event: "participant.resumed", fields: ["participant": participant.id, "from": "\(resume.version)", "replayed": "\(welcome.snapshot.count)"])))
            return outputs
        }
        guard session.presentCount < configuration.maximumParticipants else {
            return outputs + reject(connection, code: .sessionFull, "the session has its maximum of \(configuration.maximumParticipants) participants", closeCode: 1008, at: now)
        }
        let id = "p\(session.nextParticipantNumber)"
        session.nextParticipantNumber += 1
        var participant = Participant(id: id, name: hello.name, role: hello.role, secretHash: hello.newSecretHash, state: .present, lastSeen: now)
        participant.connection = connection
        participant.node = configuration.node
        session.participants[id] = participant
        sessions[session.id] = session
        connections[connection]?.member = (session.id, id)
        writes.participants.append((session.id, participant))
        let event = sequence(.presence(SessionEvent.Presence(participant: .init(rawValue: id), name: hello.name, role: hello.role, state: .joined)), in: session.id, sender: Self.serverSender, commandID: nil)
        let current = sessions[session.id]!
        outputs.append(.send(connection, .welcome(SessionWelcome(
            session: session.id, participant: .init(rawValue: id), role: hello.role, secret: hello.newSecret, stream: session.stream,
            keepAlive: configuration.keepAliveInterval, version: current.version, snapshot: current.snapshot,
            participants: current.presentParticipants))))
        outputs += fanOut(event, in: session.id, except: connection)
        outputs.append(.log(ServiceLogEntry(at: now, session: session.id, event: "participant.joined", fields: ["participant": id, "name": hello.name, "role": hello.role.rawValue])))
        return outputs
    }

    // MARK: - Messages

    /// A coordination message as a command: checked against the sender's role and identity,
    /// sequenced, acknowledged and fanned out (or, if its id was seen, acknowledged again).
    public mutating func command(_ connection: ServiceConnectionID, id: String, _ message: CoordinationMessage, at now: Duration) -> [Output] {
        var outputs: [Output] = []
        guard admit(connection, at: now, outputs: &outputs) else { return outputs }
        guard let (sessionID, sender) = connections[connection]?.member, let session = sessions[sessionID],
            let participant = session.participants[sender]
        else { return outputs + malformed(connection, code: .badMessage, "say hello before sending commands", at: now) }
        connections[connection]?.malformedInARow = 0
        if let version = session.version(ofCommand: id, from: sender) {
            return outputs + [.send(connection, .ack(id: id, version: version))]
        }
        if let refusal = check(message, from: participant, in: session, at: now) {
            refuse(connection, refusal.code, refusal.reason, commandID: id, into: &outputs)
            outputs.append(.log(ServiceLogEntry(at: now, session: sessionID, event: "command.refused", fields: ["participant": sender, "code": refusal.code.rawValue, "reason": refusal.reason])))
            return outputs
        }
        if case .hello = message {
            // The welcome's snapshot already answers a hello: nothing to sequence.
            return outputs + [.send(connection, .ack(id: id, version: session.version))]
        }
        let event = sequence(.message(message), in: sessionID, sender: sender, commandID: id)
        outputs.append(.send(connection, .ack(id: id, version: event.version)))
        outputs += fanOut(event, in: sessionID, except: nil)
        if case .playbackState(let state) = message, state.timestamp.participant.rawValue == sender {
            outputs.append(.log(ServiceLogEntry(at: now, session: sessionID, event: "playback.changed", fields: [
                "participant": sender, "item": state.itemIdentifier, "rate": "\(state.rate)", "time": "\(state.anchorTime)", "version": "\(event.version)",
            ])))
        }
        return outputs
    }

    /// An application message: sequenced and fanned out like a command. Types under the
    /// reserved `interlude.` prefix are the server's own (`interlude.report`: a participant's
    /// skew and clock round trip, for the metrics) and are not relayed.
    public mutating func custom(_ connection: ServiceConnectionID, id: String, messageType: String, body: WireValue, at now: Duration) -> [Output] {
        var outputs: [Output] = []
        guard admit(connection, at: now, outputs: &outputs) else { return outputs }
        guard let (sessionID, sender) = connections[connection]?.member, let session = sessions[sessionID] else {
            return outputs + malformed(connection, code: .badMessage, "say hello before sending messages", at: now)
        }
        connections[connection]?.malformedInARow = 0
        if messageType.hasPrefix("interlude.") {
            guard messageType == "interlude.report", let report = try? ParticipantReport(wire: body) else {
                refuse(connection, .unknownType, "\(messageType) is reserved for the server", commandID: id, into: &outputs)
                outputs.append(refusalLog(connection, event: "message.refused", code: .unknownType, "\(messageType) is reserved for the server", at: now))
                return outputs
            }
            return outputs + [.participantReport(session: sessionID, participant: sender, report)]
        }
        if let version = session.version(ofCommand: id, from: sender) {
            return outputs + [.send(connection, .ack(id: id, version: version))]
        }
        if Self.nesting(of: body) > Self.maximumCustomBodyNesting {
            let reason = "a custom body may nest at most \(Self.maximumCustomBodyNesting) levels, so that its event still parses inside a welcome"
            refuse(connection, .outOfRange, reason, commandID: id, into: &outputs)
            outputs.append(refusalLog(connection, event: "message.refused", code: .outOfRange, reason, at: now))
            return outputs
        }
        let event = sequence(.custom(messageType: messageType, body: body), in: sessionID, sender: sender, commandID: id)
        outputs.append(.send(connection, .ack(id: id, version: event.version)))
        outputs += fanOut(event, in: sessionID, except: nil)
        return outputs
    }

    /// A clock probe, answered on the session's group clock.
    public mutating func clockProbe(_ connection: ServiceConnectionID, _ probe: ClockProbe, at now: Duration) -> [Output] {
        var outputs: [Output] = []
        guard admit(connection, at: now, outputs: &outputs) else { return outputs }
        guard let (sessionID, _) = connections[connection]?.member, let time = groupTime(of: sessionID, at: now) else {
            return outputs + malformed(connection, code: .badMessage, "say hello before probing the clock", at: now)
        }
        connections[connection]?.malformedInARow = 0
        return outputs + [.send(connection, .clockReply(ClockProbeReply(answering: probe, receivedAt: time, sentAt: time)))]
    }

    /// A keep-alive.
    public mutating func ping(_ connection: ServiceConnectionID, at now: Duration) -> [Output] {
        var outputs: [Output] = []
        guard admit(connection, at: now, outputs: &outputs) else { return outputs }
        connections[connection]?.malformedInARow = 0
        return outputs + [.send(connection, .pong)]
    }

    /// Gap repair: the events from `version` on, or (when the log no longer holds them) a fresh
    /// welcome with the snapshot.
    public mutating func resync(_ connection: ServiceConnectionID, from version: UInt64, at now: Duration) -> [Output] {
        var outputs: [Output] = []
        guard admit(connection, at: now, outputs: &outputs) else { return outputs }
        guard let (sessionID, sender) = connections[connection]?.member, let session = sessions[sessionID],
            let participant = session.participants[sender]
        else { return outputs + malformed(connection, code: .badMessage, "say hello before asking for events", at: now) }
        connections[connection]?.malformedInARow = 0
        if let events = session.events(after: version == 0 ? 0 : version - 1) {
            return outputs + events.map { .send(connection, .event($0)) }
        }
        return outputs + [.send(connection, .welcome(SessionWelcome(
            session: sessionID, participant: .init(rawValue: sender), role: participant.role, secret: "", stream: session.stream,
            keepAlive: configuration.keepAliveInterval, version: session.version, snapshot: session.snapshot,
            participants: session.presentParticipants)))]
    }

    /// The participant leaves for good.
    public mutating func leave(_ connection: ServiceConnectionID, at now: Duration) -> [Output] {
        guard let (sessionID, sender) = connections[connection]?.member, var session = sessions[sessionID],
            var participant = session.participants[sender]
        else { return [.close(connection, code: 1000, reason: "bye")] }
        participant.state = .left
        participant.connection = nil
        session.participants[sender] = participant
        session.lastDeparture = now
        sessions[sessionID] = session
        connections[connection]?.member = nil
        writes.participants.append((sessionID, participant))
        let event = sequence(.presence(SessionEvent.Presence(participant: .init(rawValue: sender), name: participant.name, role: participant.role, state: .left)), in: sessionID, sender: Self.serverSender, commandID: nil)
        var outputs = fanOut(event, in: sessionID, except: connection)
        outputs.append(.close(connection, code: 1000, reason: "left"))
        outputs.append(.log(ServiceLogEntry(at: now, session: sessionID, event: "participant.left", fields: ["participant": sender])))
        return outputs
    }

    /// The keep-alive check: connections that never said hello, and participants silent for two
    /// intervals, are dropped (a lost participant may resume).
    public mutating func tick(at now: Duration) -> [Output] {
        var outputs: [Output] = []
        // The few overdue found first, then sorted: not every connection sorted at every tick.
        let unwelcomed = connections.filter { _, connection in connection.member == nil && now - connection.openedAt >= configuration.helloTimeout }
        for (id, _) in unwelcomed.sorted(by: { $0.key < $1.key }) {
            outputs += reject(id, code: .unauthorized, "no hello within \(configuration.helloTimeout)", closeCode: 1008, at: now)
            connections[id] = nil
        }
        // Found first and sorted after (by session, then participant): a tick of a busy server
        // finds none or a few among thousands.
        var overdue: [(session: String, participant: String)] = []
        for (sessionID, session) in sessions where !session.isEnded {
            for (participantID, participant) in session.participants
            where participant.state == .present && participant.node == configuration.node && now - participant.lastSeen >= configuration.lostAfter {
                overdue.append((sessionID, participantID))
            }
        }
        for (sessionID, participantID) in overdue.sorted(by: { ($0.session, $0.participant) < ($1.session, $1.participant) }) {
            guard let participant = sessions[sessionID]?.participants[participantID] else { continue }
            if let connection = participant.connection {
                connections[connection]?.member = nil
                outputs.append(.close(connection, code: 1001, reason: "keep-alive timed out"))
            }
            outputs += markLost(participant.id, in: sessionID, reason: "silent for \(now - participant.lastSeen)", at: now)
        }
        return outputs
    }

    /// When ``tick(at:)`` next has something to do.
    public func nextDeadline() -> Duration? {
        var deadline: Duration?
        for connection in connections.values where connection.member == nil {
            let due = connection.openedAt + configuration.helloTimeout
            deadline = deadline.map { min($0, due) } ?? due
        }
        for session in sessions.values where !session.isEnded {
            for participant in session.participants.values where participant.state == .present && participant.node == configuration.node {
                let due = participant.lastSeen + configuration.lostAfter
                deadline = deadline.map { min($0, due) } ?? due
            }
        }
        return deadline
    }

    // MARK: - Helpers

    /// The sender of the server's own events (presence): no participant is named so, since
    /// participants are `p1`, `p2`, ….
    public static let serverSender = "server"

    /// How deep a custom body may nest arrays and objects: a `custom` message holds it one level
    /// down, but its event three (`event` › `custom` › `body`) and a resuming participant's
    /// welcome five (`welcome` › `snapshot` › `event` › `custom` › `body`), and every reader parses
    /// at most ``WireJSONLimits/standard``'s depth. A deeper body would be sequenced and then
    /// unreadable by everyone.
    public static let maximumCustomBodyNesting = WireJSONLimits.standard.maximumDepth - 4

    /// How deep `value` nests arrays and objects (a scalar: 0). Its depth is bounded by the parser's.
    static func nesting(of value: WireValue) -> Int {
        switch value {
        case .array(let elements): 1 + (elements.lazy.map(nesting(of:)).max() ?? 0)
        case .object(let object): 1 + (object.values.lazy.map(nesting(of:)).max() ?? 0)
        case .null, .bool, .integer, .double, .string: 0
        }
    }

    /// Whether `state` restates `current` where the group can stand at its anchor: between the
    /// current anchor and where the current state would have moved by then without any wait (a
    /// wait only holds the group back), with a second of slack for rounding. A coordinator
    /// re-anchors there when a departed participant's waits shaped the timeline; a seek elsewhere
    /// is not a re-anchoring.
    static func isReanchoring(_ state: CoordinatedPlaybackState, of current: CoordinatedPlaybackState) -> Bool {
        let slack: Duration = .seconds(1)
        let from = Duration(rounding: current.anchorTime)
        let elapsed = max(.zero, state.anchorGroupTime - current.anchorGroupTime)
        let moved = elapsed * current.rate
        let to = current.rate >= 0 ? from + moved : from
        let lowest = current.rate >= 0 ? from : from + moved
        let time = Duration(rounding: state.anchorTime)
        return time >= lowest - slack && time <= to + slack
    }

    mutating func markLost(_ participantID: String, in sessionID: String, reason: String, at now: Duration) -> [Output] {
        guard var session = sessions[sessionID], var participant = session.participants[participantID], participant.state == .present else { return [] }
        participant.state = .lost
        participant.connection = nil
        session.participants[participantID] = participant
        session.lastDeparture = now
        sessions[sessionID] = session
        writes.participants.append((sessionID, participant))
        let event = sequence(.presence(SessionEvent.Presence(participant: .init(rawValue: participantID), name: participant.name, role: participant.role, state: .lost)), in: sessionID, sender: Self.serverSender, commandID: nil)
        var outputs = fanOut(event, in: sessionID, except: nil)
        outputs.append(.log(ServiceLogEntry(at: now, session: sessionID, event: "participant.lost", fields: ["participant": participantID, "reason": reason])))
        return outputs
    }

    private mutating func sequence(_ body: SessionEvent.Body, in sessionID: String, sender: String, commandID: String?) -> SessionEvent {
        let event = sessions[sessionID]!.sequence(body, sender: sender, logLength: configuration.logLength)
        if let commandID { sessions[sessionID]!.remember(command: commandID, from: sender, version: event.version, limit: configuration.rememberedCommands) }
        writes.events.append((sessionID, event, commandID))
        return event
    }

    func fanOut(_ event: SessionEvent, in sessionID: String, except excluded: ServiceConnectionID?) -> [Output] {
        guard let session = sessions[sessionID] else { return [] }
        return session.participants.values.compactMap(\.connection).filter { $0 != excluded }.sorted().map { .send($0, .event(event)) }
    }

    /// Why `participant` may not send `message`, or `nil` when it may.
    private func check(_ message: CoordinationMessage, from participant: Participant, in session: Session, at now: Duration) -> (code: SessionError.Code, reason: String)? {
        let sender = participant.id
        switch message {
        case .hello(let id):
            return id.rawValue == sender ? nil : (.forbidden, "a hello must name its sender \(sender), not \(id)")
        case .participantState(let update):
            return update.participant.rawValue == sender ? nil : (.forbidden, "a participant state must be the sender's own (\(sender)), not \(update.participant)'s")
        case .adSchedule(let schedule):
            return schedule.participant.rawValue == sender ? nil : (.forbidden, "an ad schedule must be the sender's own (\(sender)), not \(schedule.participant)'s")
        case .playbackState(let state):
            let current: CoordinatedPlaybackState? = if case .message(.playbackState(let retained))? = session.retained["playbackState/\(state.itemIdentifier)"]?.body { retained } else { nil }
            if state == current { return nil }  // a restatement of the group's state, as every coordinator sends on connect
            guard state.timestamp.participant.rawValue == sender else {
                return (.forbidden, "a playback state must be issued by its sender \(sender), not \(state.timestamp.participant)")
            }
            if participant.role.mayControlPlayback { return nil }
            guard let current else {
                // The first proposal for an item nobody has started.
                return state.timestamp.counter == 0 ? nil : (.forbidden, "a \(participant.role.rawValue) may not change playback")
            }
            if state.rate == current.rate, let departure = session.lastDeparture, now - departure <= configuration.reanchorWindow,
                Self.isReanchoring(state, of: current) {
                return nil  // the re-anchoring after a departure: rate unchanged, where the group stands
            }
            return (.forbidden, "a \(participant.role.rawValue) may not \(state.rate == current.rate ? "seek" : state.rate == 0 ? "pause" : "play or change the rate")")
        }
    }
}

/// One line of the session log: when, which session, what happened, and details.
public struct ServiceLogEntry: Sendable, Hashable {
    /// When (server wall clock).
    public var at: Duration
    /// The session, or empty.
    public var session: String
    /// What happened (`participant.joined`, `command.refused`, …).
    public var event: String
    /// Details.
    public var fields: [String: String]

    /// A line.
    public init(at: Duration, session: String, event: String, fields: [String: String] = [:]) {
        self.at = at
        self.session = session
        self.event = event
        self.fields = fields
    }
}
