import GroupCoordination
import GroupWire

/// A participant's side of the group-session protocol (`docs/group-protocol.md`), as a pure state
/// machine on the participant's local clock: it says hello (or resumes), applies the server's
/// events strictly in version order, repairs gaps, keeps unacknowledged commands and sends them
/// again with the same ids after a reconnect (the server applies each id once), keeps the
/// connection alive, notices a dead one, and reconnects with a short backoff.
///
/// The shell opens and closes sockets when told (``Output/connect`` and ``Output/disconnect``),
/// sends what it is given, and reports what arrives.
public struct GroupSessionLink: Sendable {
    /// How it connects and keeps the connection.
    public struct Configuration: Sendable, Hashable {
        /// The invitation token.
        public var token: String
        /// The name shown to the others.
        public var name: String
        /// The first wait before a reconnection; it doubles up to ``maximumReconnectDelay``.
        public var reconnectDelay: Duration = .milliseconds(200)
        /// The longest wait between reconnection attempts (short, so that a healed network is used
        /// within about a second).
        public var maximumReconnectDelay: Duration = .seconds(1)
        /// How long a connection attempt (to the welcome) may take before it is abandoned and made
        /// again: a fresh attempt after a partition heals does not wait out TCP's backoff.
        public var connectTimeout: Duration = .milliseconds(1_500)
        /// The keep-alive interval until the server says its own.
        public var keepAlive: Duration = .seconds(2)

        /// A configuration.
        public init(token: String, name: String) {
            self.token = token
            self.name = name
        }
    }

    /// Where the link is.
    public enum Phase: Sendable, Hashable {
        /// Waiting to connect (at the first start, or after a drop).
        case disconnected
        /// A socket is being opened, or the hello is out and the welcome awaited.
        case connecting
        /// Admitted: events flow.
        case joined
        /// Refused for good (an invalid invitation, an ended session): nothing more happens.
        case stopped(SessionError)
    }

    /// What to do, in order.
    public enum Output: Sendable, Hashable {
        /// Open a WebSocket to the server now (and report ``Input/connected`` or
        /// ``Input/disconnected``).
        case connect
        /// Send this on the open socket.
        case transmit(SessionClientMessage)
        /// Close the socket (it is dead or was refused); a reconnection follows unless stopped.
        case disconnect(reason: String)
        /// The server admitted the participant (the first time, or again after a reconnect).
        case welcomed(SessionWelcome, isFirst: Bool)
        /// A coordination message from another participant, in the session's order.
        case message(CoordinationMessage, from: CoordinatedPlaybackParticipant.ID)
        /// A custom message from another participant.
        case custom(messageType: String, body: WireValue, from: CoordinatedPlaybackParticipant.ID)
        /// Someone joined, left, was lost or came back.
        case presence(SessionEvent.Presence)
        /// The answer to a clock probe.
        case clockReply(ClockProbeReply)
        /// The server refused something (a command's id is in it): the app may show it.
        case refused(SessionError)
        /// The link stopped for good.
        case stopped(SessionError)
    }

    /// What happened to the socket.
    public enum Input: Sendable, Hashable {
        /// The socket opened.
        case connected
        /// The socket closed or could not open.
        case disconnected(reason: String)
        /// A message arrived.
        case received(SessionServerMessage)
    }

    /// The settings.
    public let configuration: Configuration
    /// Where it is.
    public private(set) var phase = Phase.disconnected
    /// Who the participant is, once welcomed.
    public private(set) var welcome: SessionWelcome?
    /// The last version applied.
    public private(set) var version: UInt64 = 0
    /// Reconnections so far.
    public private(set) var reconnections = 0
    private var pending: [(id: String, message: SessionClientMessage)] = []
    private var nextCommand: UInt64 = 1
    private var buffered: [UInt64: SessionEvent] = [:]
    private var resyncRequested = false
    private var lastSent: Duration = .zero
    private var lastReceived: Duration = .zero
    private var connectStarted: Duration = .zero
    private var reconnectAt: Duration? = .zero
    private var attempts = 0

    /// A link that will connect at once.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    private var keepAlive: Duration { welcome?.keepAlive ?? configuration.keepAlive }

    /// When ``tick(at:)`` is next due.
    public var nextDeadline: Duration? {
        switch phase {
        case .stopped: nil
        case .disconnected: reconnectAt
        case .connecting: connectStarted + configuration.connectTimeout
        case .joined: min(lastSent + keepAlive / 2, lastReceived + keepAlive * 2)
        }
    }

    // MARK: Inputs

    /// Does what is due: a reconnection, a ping, or giving up on a silent connection.
    public mutating func tick(at now: Duration) -> [Output] {
        switch phase {
        case .stopped:
            return []
        case .disconnected:
            guard let at = reconnectAt, at <= now else { return [] }
            reconnectAt = nil
            phase = .connecting
            connectStarted = now
            return [.connect]
        case .connecting:
            guard now - connectStarted >= configuration.connectTimeout else { return [] }
            return drop("no welcome within \(configuration.connectTimeout)", at: now)
        case .joined:
            // Silent for two intervals: the server has counted this participant lost and closed;
            // the socket is dead (a partition), so make a fresh one.
            if now - lastReceived >= keepAlive * 2 { return drop("the server was silent for \(now - lastReceived)", at: now) }
            if now - lastSent >= keepAlive / 2 { return [transmit(.ping, at: now)] }
            return []
        }
    }

    /// What the socket reported.
    public mutating func handle(_ input: Input, at now: Duration) -> [Output] {
        switch input {
        case .connected:
            guard phase == .connecting else { return [] }
            let resume = welcome.map { SessionHello.Resume(participant: $0.participant, secret: $0.secret, version: version) }
            return [transmit(.hello(SessionHello(token: configuration.token, name: configuration.name, resume: resume)), at: now)]
        case .disconnected(let reason):
            guard phase == .connecting || phase == .joined else { return [] }
            return drop(reason, at: now, socketClosed: true)
        case .received(let message):
            lastReceived = now
            return receive(message, at: now)
        }
    }

    /// Sends a coordination message to the group as a command; it is kept until acknowledged and
    /// sent again after a reconnect.
    public mutating func send(_ message: CoordinationMessage, at now: Duration) -> [Output] {
        let id = "c\(nextCommand)"
        nextCommand += 1
        let command = SessionClientMessage.command(id: id, message: message)
        pending.append((id, command))
        return phase == .joined ? [transmit(command, at: now)] : []
    }

    /// Sends a custom message to the group (kept like a command).
    public mutating func sendCustom(messageType: String, body: WireValue, at now: Duration) -> [Output] {
        let id = "c\(nextCommand)"
        nextCommand += 1
        let message = SessionClientMessage.custom(id: id, messageType: messageType, body: body)
        if messageType.hasPrefix("interlude.") { return phase == .joined ? [transmit(message, at: now)] : [] }
        pending.append((id, message))
        return phase == .joined ? [transmit(message, at: now)] : []
    }

    /// Sends a clock probe (not kept: a lost probe is replaced by the next).
    public mutating func probe(_ probe: ClockProbe, at now: Duration) -> [Output] {
        phase == .joined ? [transmit(.clockProbe(probe), at: now)] : []
    }

    /// Leaves the session for good.
    public mutating func leave(at now: Duration) -> [Output] {
        let outputs: [Output] = phase == .joined ? [transmit(.leave, at: now)] : []
        phase = .stopped(SessionError(code: "left", message: "left the session"))
        return outputs
    }

    /// Commands not acknowledged yet.
    public var unacknowledgedCount: Int { pending.count }

    // MARK: Steps

    private mutating func transmit(_ message: SessionClientMessage, at now: Duration) -> Output {
        lastSent = now
        return .transmit(message)
    }

    /// Gives up on the current socket (closing it unless it closed itself) and schedules a
    /// reconnection after a backoff that doubles up to the maximum.
    private mutating func drop(_ reason: String, at now: Duration, socketClosed: Bool = false) -> [Output] {
        if case .stopped = phase { return [] }
        phase = .disconnected
        attempts += 1
        reconnections += 1
        var delay = configuration.reconnectDelay
        for _ in 1..<min(attempts, 8) { delay = min(delay * 2, configuration.maximumReconnectDelay) }
        reconnectAt = now + delay
        buffered = [:]
        resyncRequested = false
        return socketClosed ? [] : [.disconnect(reason: reason)]
    }

    private mutating func receive(_ message: SessionServerMessage, at now: Duration) -> [Output] {
        switch message {
        case .welcome(let welcome):
            let isFirst = self.welcome == nil || self.welcome?.participant != welcome.participant
            var secretKept = welcome
            if secretKept.secret.isEmpty, let previous = self.welcome { secretKept.secret = previous.secret }
            self.welcome = secretKept
            phase = .joined
            attempts = 0
            var outputs: [Output] = [.welcomed(secretKept, isFirst: isFirst)]
            for event in welcome.snapshot.sorted(by: { $0.version < $1.version }) where event.version > version || isFirst {
                outputs += deliver(event, own: welcome.participant)
            }
            version = max(version, welcome.version)
            // Commands that were not acknowledged go again, with their ids: the server applies an
            // id once, so one that did commit is only acknowledged again.
            for (_, command) in pending { outputs.append(transmit(command, at: now)) }
            return outputs
        case .event(let event):
            guard phase == .joined, let welcome else { return [] }
            if event.version <= version { return [] }
            if event.version > version + 1 {
                buffered[event.version] = event
                guard !resyncRequested else { return [] }
                resyncRequested = true
                return [transmit(.resync(from: version + 1), at: now)]
            }
            var outputs = deliver(event, own: welcome.participant)
            version = event.version
            while let next = buffered.removeValue(forKey: version + 1) {
                outputs += deliver(next, own: welcome.participant)
                version = next.version
            }
            if buffered.isEmpty { resyncRequested = false }
            return outputs
        case .ack(let id, let ackVersion):
            pending.removeAll { $0.id == id }
            _ = ackVersion
            return []
        case .error(let error):
            if let id = error.id { pending.removeAll { $0.id == id } }
            if error.code.closeCode != nil, error.code != .rateLimited {
                // Refused for good: an invalid invitation, an ended session, a protocol mismatch.
                if error.code == .unauthorized || error.code == .sessionEnded || error.code == .protocolVersion || error.code == .sessionFull {
                    phase = .stopped(error)
                    return [.stopped(error)]
                }
            }
            return [.refused(error)]
        case .clockReply(let reply):
            return [.clockReply(reply)]
        case .pong:
            return []
        }
    }

    private func deliver(_ event: SessionEvent, own participant: CoordinatedPlaybackParticipant.ID) -> [Output] {
        switch event.body {
        case .message(let message):
            return event.sender == participant ? [] : [.message(message, from: event.sender)]
        case .custom(let messageType, let body):
            return event.sender == participant ? [] : [.custom(messageType: messageType, body: body, from: event.sender)]
        case .presence(let presence):
            return presence.participant == participant ? [] : [.presence(presence)]
        }
    }
}
