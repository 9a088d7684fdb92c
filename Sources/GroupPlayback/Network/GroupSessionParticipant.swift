import GroupCoordination
import GroupWire
import HLSInterstitials
import MediaTime
import NetworkIO
import PlayerEngine
import Synchronization

/// A participant that reaches its group through a group-session server (`interlude serve`): the
/// shell around a ``GroupSessionLink`` (the protocol: hello, resume, order, keep-alive,
/// reconnection) and a ``ParticipantDriver`` (the coordinator and its player), over one WebSocket.
///
///     let participant = GroupSessionParticipant(player: player, clock: ContinuousClock(),
///         configuration: .init(server: "ws://127.0.0.1:7400/group", token: token, name: "bob") { welcome in
///             PlayerItem(url: welcome.stream) })
///     Task { await participant.run() }
///
/// The server keeps the group clock (the driver probes it) and tells of departures (a lost or
/// departed participant stops holding the group). The player's item is set once the server
/// admits the participant, from the welcome (which names the session's stream); after a
/// reconnection the participant tells the group its state again and goes on, and nobody else is
/// moved.
///
/// Locking: the state lives under one lock; the player is commanded under it (the player never
/// calls back synchronously), frames go out through a queue that one task drains in order, and
/// subscribers are fed by non-blocking yields.
public final class GroupSessionParticipant: Sendable {
    /// Where the server is and how to take part.
    public struct Configuration: Sendable {
        /// The server's WebSocket URL (`ws://HOST:PORT/group`, or `wss://`).
        public var server: String
        /// Other servers of the same sessions (several `interlude serve` sharing a Redis store):
        /// when a connection fails or ends, the next one is tried, in turn with ``server``.
        public var alternateServers: [String] = []
        /// The link's settings: the invitation token and the name.
        public var link: GroupSessionLink.Configuration
        /// TLS settings for `wss://` (trusted certificates; self-signed for tests).
        public var tls: WebSocketClient.TLS?
        /// How often the player's position is observed.
        public var observationInterval: Duration = .milliseconds(250)
        /// The coordinator's settings (the waiting policy, the command lead time).
        public var coordinator = PlaybackCoordinatorStateMachine.Configuration()
        /// The clock estimator's settings.
        public var clockEstimator = GroupClockEstimator.Configuration()
        /// The waiting policy (Apple's `suspensionReasonsThatTriggerWaiting`); `nil` keeps the
        /// coordinator's default (only `userIsChangingCurrentTime`).
        public var suspensionReasonsThatTriggerWaiting: [CoordinatedPlaybackSuspension.Reason]?
        /// How often the participant reports its skew and clock round trip to the server (for
        /// its metrics); `nil` sends none.
        public var reportInterval: Duration? = .seconds(1)
        /// What the player plays once admitted (the welcome names the session's stream).
        public var item: @Sendable (SessionWelcome) -> PlayerItem?

        /// A configuration.
        public init(server: String, token: String, name: String, item: @escaping @Sendable (SessionWelcome) -> PlayerItem?) {
            self.server = server
            self.link = GroupSessionLink.Configuration(token: token, name: name)
            self.item = item
        }
    }

    /// What happens, for UI and logs.
    public enum Event: Sendable {
        /// The server admitted the participant (again, after a reconnection, when not first).
        case welcomed(SessionWelcome, isFirst: Bool)
        /// The connection dropped; a reconnection follows.
        case disconnected(String)
        /// Someone joined, left, was lost or came back.
        case presence(SessionEvent.Presence)
        /// The server refused something.
        case refused(SessionError)
        /// The server refused the participant for good (invitation, session ended).
        case stopped(SessionError)
        /// The driver's events: the coordinator's, the clock, waits.
        case driver(ParticipantDriver.Event)
        /// A command the coordinator gave the player.
        case playerCommand(PlayerCoordinationBinding.PlayerCommand, originator: CoordinatedPlaybackParticipant.ID?)
        /// A custom message from another participant.
        case custom(messageType: String, body: WireValue, from: CoordinatedPlaybackParticipant.ID)
    }

    private struct State {
        var link: GroupSessionLink
        var driver: ParticipantDriver?
        var connection: WebSocketConnection?
        var generation = 0
        var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextSubscriber = 0
        var armed: [Duration] = []
        var nextProbe: UInt64 = 1
        var nextReport: Duration = .zero
        var lastSkew: Duration?
        /// Which of the servers the next connection goes to.
        var serverIndex = 0
    }

    private enum Outgoing: Sendable {
        case text(WebSocketConnection, String)
        case close(WebSocketConnection, String)
        case connect(Int)
    }

    /// The configuration.
    public let configuration: Configuration
    /// The player it coordinates.
    public let player: Player
    private let state: Mutex<State>
    private let client: WebSocketClient
    private let playerEvents: AsyncStream<PlayerEvent>
    private let outbox: AsyncStream<Outgoing>
    private let outboxInput: AsyncStream<Outgoing>.Continuation
    private let connectRequests: AsyncStream<Int>
    private let connectInput: AsyncStream<Int>.Continuation
    private let timerRequests: AsyncStream<Duration>
    private let timerInput: AsyncStream<Duration>.Continuation
    private let sleepUntil: @Sendable (Duration) async throws -> Void

    /// A participant for `player` (which runs on `clock`).
    public init<C: Clock>(player: Player, clock: C, configuration: Configuration) where C.Duration == Duration {
        self.player = player
        self.configuration = configuration
        client = configuration.tls.map { WebSocketClient(tls: $0) } ?? WebSocketClient()
        let base = clock.now
        let baseHostTime = player.hostTime
        sleepUntil = { deadline in try await clock.sleep(until: base.advanced(by: deadline - baseHostTime), tolerance: nil) }
        playerEvents = player.events()
        (outbox, outboxInput) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        (timerRequests, timerInput) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        (connectRequests, connectInput) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        state = Mutex(State(link: GroupSessionLink(configuration: configuration.link)))
    }

    deinit {
        state.withLock { state in
            for subscriber in state.subscribers.values { subscriber.finish() }
        }
        outboxInput.finish()
        timerInput.finish()
        connectInput.finish()
    }

    // MARK: Running

    /// Takes part until the task is cancelled or the server refuses the participant for good.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await event in self.playerEvents { self.handle(event) }
            }
            group.addTask {
                for await outgoing in self.outbox {
                    switch outgoing {
                    case .text(let connection, let text):
                        try? await connection.send(.text(text))
                    case .close(let connection, let reason):
                        _ = await connection.close(code: .goingAway, reason: reason)
                    case .connect(let generation):
                        self.connectInput.yield(generation)
                    }
                }
            }
            group.addTask {
                // Each connection reads until it ends; a new one may start before an old one has
                // finished closing (a partitioned socket closes slowly).
                await withDiscardingTaskGroup { connections in
                    for await generation in self.connectRequests {
                        connections.addTask { await self.connect(generation) }
                    }
                }
            }
            locked { state in settle(&state) }
            for await deadline in timerRequests {
                group.addTask {
                    do { try await self.sleepUntil(deadline) } catch { return }
                    self.timerFired(deadline)
                }
            }
            outboxInput.finish()
            connectInput.finish()
            group.cancelAll()
        }
        await client.shutdown()
    }

    /// The participant's events from now on.
    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state -> Int in
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Leaves the session for good and stops.
    public func leave() {
        locked { state in
            let now = player.hostTime
            perform(state.link.leave(at: now), in: &state, at: now)
            if let connection = state.connection { outboxInput.yield(.close(connection, "left")) }
            timerInput.finish()
        }
    }

    /// Stops without leaving: the connection closes as a crashed client's would (no `leave`), so
    /// the server counts the participant lost and the group stops waiting for it
    /// (docs/group-protocol.md, Presence). For a participant that stands in for another
    /// (a browser tab) that went away without a word.
    public func drop() {
        locked { state in
            // The link stops as after a leave, but the leave it would send is dropped.
            _ = state.link.leave(at: player.hostTime)
            if let connection = state.connection { outboxInput.yield(.close(connection, "dropped")) }
            state.connection = nil
            state.generation += 1
            timerInput.finish()
        }
    }

    /// Begins a suspension of the app's (a stall of media it presents itself, an interruption):
    /// the coordinator's ``ParticipantDriver/beginSuspension(for:at:)``. `nil` before the
    /// participant has joined.
    public func beginSuspension(for reason: CoordinatedPlaybackSuspension.Reason) -> CoordinatedPlaybackSuspension? {
        state.withLock { state -> CoordinatedPlaybackSuspension? in
            guard state.driver != nil else { return nil }
            let now = player.hostTime
            let (suspension, outputs) = state.driver!.beginSuspension(for: reason, at: now)
            apply(outputs, in: &state, at: now)
            settle(&state)
            return suspension
        }
    }

    /// Ends a suspension begun with ``beginSuspension(for:)``.
    public func endSuspension(_ suspension: CoordinatedPlaybackSuspension) {
        locked { state in
            guard state.driver != nil else { return }
            let now = player.hostTime
            apply(state.driver!.endSuspension(suspension, proposing: nil, at: now), in: &state, at: now)
            settle(&state)
        }
    }

    // MARK: Reading

    /// The welcome of the current admission.
    public var welcome: SessionWelcome? { state.withLock { $0.link.welcome } }
    /// The link's phase.
    public var phase: GroupSessionLink.Phase { state.withLock { $0.link.phase } }
    /// Reconnections so far.
    public var reconnections: Int { state.withLock { $0.link.reconnections } }
    /// Whether the player's item is coordinated with the group (the participant has joined it and
    /// the item is ready): from then on the user's play, pause and seek are the group's commands.
    public var isCoordinatingItem: Bool { state.withLock { $0.driver?.hasStartedItem ?? false } }
    /// The group clock as known (`nil` before the first probe's reply).
    public var clockEstimate: GroupClockEstimate? { state.withLock { $0.driver?.clockEstimate } }
    /// What the group does and whom it waits for, now.
    public var groupStatus: PlaybackCoordinatorStateMachine.GroupPlaybackStatus? {
        state.withLock { state in
            guard let driver = state.driver else { return nil }
            return driver.binding.coordinator.groupStatus(at: driver.groupClock.groupTime(atLocalTime: player.hostTime))
        }
    }
    /// The other participants, as the coordinator knows them.
    public var otherParticipants: [CoordinatedPlaybackParticipant] {
        state.withLock { $0.driver?.binding.coordinator.otherParticipants ?? [] }
    }
    /// The last skew measured: the player's primary time less the group's expected one (positive:
    /// ahead); `nil` when either is inside a break or unknown.
    public var skew: Duration? { state.withLock { $0.lastSkew } }

    /// Where the coordinator expects the player at host time `hostTime`.
    public func expectedPosition(atHostTime hostTime: Duration) -> IntegratedTimeline.Position? {
        state.withLock { state in
            guard let driver = state.driver else { return nil }
            let groupTime = driver.groupClock.groupTime(atLocalTime: hostTime)
            return driver.binding.coordinator.expectedItemTime(atGroupTime: groupTime).map(PlayerCoordinationBinding.position)
        }
    }

    /// Sets the waiting policy (Apple's `suspensionReasonsThatTriggerWaiting`), at once.
    public func setSuspensionReasonsThatTriggerWaiting(_ reasons: [CoordinatedPlaybackSuspension.Reason]) {
        locked { state in
            guard state.driver != nil else { return }
            let now = player.hostTime
            apply(state.driver!.perform(at: now) { coordinator, groupTime in
                coordinator.setSuspensionReasonsThatTriggerWaiting(reasons, at: groupTime)
            }, in: &state, at: now)
            settle(&state)
        }
    }

    // MARK: Inputs

    private func locked(_ body: (inout State) -> Void) {
        state.withLock { body(&$0) }
    }

    /// The server the next connection goes to, and (when there are alternates) the one after it
    /// for the connection after a failure.
    private func nextServer(movingOn: Bool) -> String {
        let servers = [configuration.server] + configuration.alternateServers
        return state.withLock { state in
            if movingOn { state.serverIndex = (state.serverIndex + 1) % servers.count }
            return servers[state.serverIndex % servers.count]
        }
    }

    private func connect(_ generation: Int) async {
        let server = nextServer(movingOn: false)
        let connection: WebSocketConnection
        do {
            connection = try await client.connect(
                to: server,
                configuration: WebSocketConfiguration(maximumMessageBytes: 4 << 20, pingInterval: .seconds(15), pongTimeout: .seconds(10)))
        } catch {
            _ = nextServer(movingOn: true)
            linkInput(.disconnected(reason: "cannot connect to \(server): \(error)"), generation: generation)
            return
        }
        let current = state.withLock { state -> Bool in
            guard state.generation == generation else { return false }
            state.connection = connection
            return true
        }
        guard current else {
            _ = await connection.close(code: .goingAway, reason: "superseded")
            return
        }
        linkInput(.connected, generation: generation)
        var reason = "closed by the server"
        do {
            for try await message in connection.messages {
                guard case .text(let text) = message else { continue }
                let decoded: SessionServerMessage
                do {
                    decoded = try SessionServerMessage(jsonBytes: Array(text.utf8), limits: Self.serverLimits)
                } catch {
                    emitLocked(.refused(SessionError(code: .badMessage, message: "the server sent what this client cannot read: \(error)")))
                    continue
                }
                linkInput(.received(decoded), generation: generation)
            }
        } catch {
            reason = "\(error)"
        }
        if let close = connection.closeStatus { reason = "\(close)" }
        _ = nextServer(movingOn: true)
        linkInput(.disconnected(reason: reason), generation: generation)
    }

    /// Messages from the server may be larger than a participant's own (a snapshot).
    static let serverLimits = WireJSONLimits(maximumBytes: 4 << 20, maximumStringBytes: 65_536, maximumElements: 16_384)

    private func linkInput(_ input: GroupSessionLink.Input, generation: Int) {
        locked { state in
            guard state.generation == generation else { return }
            let now = player.hostTime
            if case .disconnected(let reason) = input {
                state.connection = nil
                // A socket the server closed (or that never opened) needs no closing, but the
                // drop is news all the same: the link reconnects.
                let wasConnected = state.link.phase == .connecting || state.link.phase == .joined
                perform(state.link.handle(input, at: now), in: &state, at: now)
                if wasConnected, state.link.phase == .disconnected { emit(.disconnected(reason), in: state) }
            } else {
                perform(state.link.handle(input, at: now), in: &state, at: now)
            }
            settle(&state)
        }
    }

    private func handle(_ event: PlayerEvent) {
        locked { state in
            guard state.driver != nil else { return }
            let now = player.hostTime
            apply(state.driver!.playerEvent(event, player: player.machineState, at: now), in: &state, at: now)
            settle(&state)
        }
    }

    private func timerFired(_ deadline: Duration) {
        locked { state in
            if let index = state.armed.firstIndex(of: deadline) { state.armed.remove(at: index) }
            settle(&state)
        }
    }

    // MARK: Steps (under the lock)

    /// Carries out the link's outputs.
    private func perform(_ outputs: [GroupSessionLink.Output], in state: inout State, at now: Duration) {
        for output in outputs {
            switch output {
            case .connect:
                state.generation += 1
                outboxInput.yield(.connect(state.generation))
            case .transmit(let message):
                guard let connection = state.connection else { continue }
                outboxInput.yield(.text(connection, String(decoding: message.jsonBytes, as: UTF8.self)))
            case .disconnect(let reason):
                if let connection = state.connection { outboxInput.yield(.close(connection, reason)) }
                state.connection = nil
                state.generation += 1
                emit(.disconnected(reason), in: state)
            case .welcomed(let welcome, let isFirst):
                emit(.welcomed(welcome, isFirst: isFirst), in: state)
                if isFirst || state.driver == nil {
                    var driverConfiguration = ParticipantDriver.Configuration(participant: welcome.participant)
                    driverConfiguration.observationInterval = configuration.observationInterval
                    driverConfiguration.coordinator = configuration.coordinator
                    driverConfiguration.clockEstimator = configuration.clockEstimator
                    state.driver = ParticipantDriver(configuration: driverConfiguration, startingAt: now)
                    if let reasons = configuration.suspensionReasonsThatTriggerWaiting {
                        state.driver!.configure { $0.suspensionReasonsThatTriggerWaiting = reasons }
                    }
                    // A viewer's own player is not moved by its user (docs/group-protocol.md,
                    // Roles): its coordinator puts it back instead of sending what the server
                    // would refuse.
                    let mayCommand = welcome.role != .viewer
                    state.driver!.configure { $0.mayCommandGroup = mayCommand }
                    apply(state.driver!.connect(player: player.machineState, at: now), in: &state, at: now)
                    if let item = configuration.item(welcome) { player.replaceCurrentItem(with: item) }
                } else {
                    apply(state.driver!.connect(player: player.machineState, at: now), in: &state, at: now)
                }
            case .message(let message, let sender):
                guard state.driver != nil else { continue }
                apply(state.driver!.receive(message, from: sender, at: now), in: &state, at: now)
            case .custom(let messageType, let body, let sender):
                emit(.custom(messageType: messageType, body: body, from: sender), in: state)
            case .presence(let presence):
                emit(.presence(presence), in: state)
                guard state.driver != nil, presence.state == .lost || presence.state == .left else { continue }
                apply(state.driver!.participantLeft(presence.participant, at: now), in: &state, at: now)
            case .clockReply(let reply):
                guard state.driver != nil else { continue }
                apply(state.driver!.clockProbeReply(reply, player: player.machineState, at: now), in: &state, at: now)
            case .refused(let error):
                emit(.refused(error), in: state)
            case .stopped(let error):
                emit(.stopped(error), in: state)
                if let connection = state.connection { outboxInput.yield(.close(connection, "stopped")) }
                timerInput.finish()
            }
        }
    }

    /// Carries out the driver's outputs.
    private func apply(_ outputs: [ParticipantDriver.Output], in state: inout State, at now: Duration) {
        for output in outputs {
            switch output {
            case .player(let command, let originator):
                player.apply(command)
                emit(.playerCommand(command, originator: originator), in: state)
            case .send(let message, _):
                // The server fans every command out to the whole session; a hello is answered by
                // the welcome's snapshot, so it is not sent.
                if case .hello = message { continue }
                perform(state.link.send(message, at: now), in: &state, at: now)
            case .probe(let probe):
                perform(state.link.probe(probe, at: now), in: &state, at: now)
            case .event(let event):
                emit(.driver(event), in: state)
            }
        }
    }

    /// Does what is due (the link's keep-alive and reconnection, the driver's probes,
    /// observations and deadlines, the skew report) and arms the timer for what comes next.
    private func settle(_ state: inout State) {
        let now = player.hostTime
        perform(state.link.tick(at: now), in: &state, at: now)
        var rounds = 0
        while rounds < 4, let deadline = state.driver?.nextDeadline, deadline <= now {
            rounds += 1
            measureSkew(&state, at: now)
            apply(state.driver!.timerFired(player: player.machineState, at: now), in: &state, at: now)
        }
        if let interval = configuration.reportInterval, state.driver != nil, now >= state.nextReport {
            state.nextReport = now + interval
            if let report = report(state, at: now) {
                perform(state.link.sendCustom(messageType: "interlude.report", body: report.wire, at: now), in: &state, at: now)
            }
        }
        arm(&state, at: now)
    }

    /// The report for the server: the clock's round trip and the skew (for its metrics), where
    /// the player is on the coordinated timeline and whom the group waits for (for its web view).
    private func report(_ state: State, at now: Duration) -> ParticipantReport? {
        guard let driver = state.driver, let roundTrip = driver.clockEstimate?.minimumRoundTripTime else { return nil }
        let groupTime = driver.groupClock.groupTime(atLocalTime: now)
        let machine = player.machineState
        let position = player.position
        let coordinated = PlayerCoordinationBinding.mapping(of: machine).coordinatedTime(for: PlayerCoordinationBinding.position(position))
        var place = ParticipantReport.Position(coordinated: Duration(rounding: coordinated), rate: player.timeControlStatus == .playing ? player.rate : 0)
        if case .interstitial(let event, let offset) = position {
            place.breakEvent = event
            place.breakOffset = Duration(rounding: offset)
        }
        var report = ParticipantReport(skew: state.lastSkew, roundTrip: roundTrip, groupTime: groupTime, position: place)
        if let status = driver.binding.coordinator.groupStatus(at: groupTime) {
            switch status.status {
            case .playing: report.group = .playing
            case .paused: report.group = .paused
            case .waiting:
                report.group = .waiting
                report.waitingFor = status.blockers.prefix(ParticipantReport.maximumBlockers).map { blocker in
                    let cause: String = switch blocker.cause {
                    case .notReady: "not-ready"
                    case .suspension(let reason): reason == .playingInterstitial ? "ad" : reason.rawValue
                    }
                    return ParticipantReport.Blocker(participant: blocker.participant.rawValue, cause: cause)
                }
            }
        }
        return report
    }

    private func measureSkew(_ state: inout State, at now: Duration) {
        guard let driver = state.driver, case .primary(let actual) = player.position else { return }
        let groupTime = driver.groupClock.groupTime(atLocalTime: now)
        guard case .primary(let expected)? = driver.binding.coordinator.expectedItemTime(atGroupTime: groupTime).map(PlayerCoordinationBinding.position)
        else {
            state.lastSkew = nil
            return
        }
        state.lastSkew = Duration(rounding: actual) - Duration(rounding: expected)
    }

    private func arm(_ state: inout State, at now: Duration) {
        var candidates: [Duration] = []
        if let deadline = state.link.nextDeadline { candidates.append(deadline) }
        if let deadline = state.driver?.nextDeadline { candidates.append(deadline) }
        if configuration.reportInterval != nil, state.driver != nil { candidates.append(state.nextReport) }
        guard let next = candidates.min() else { return }
        let at = max(next, now + .nanoseconds(1))
        if let earliest = state.armed.min(), earliest <= at { return }
        state.armed.append(at)
        timerInput.yield(at)
    }

    private func emit(_ event: Event, in state: State) {
        for subscriber in state.subscribers.values { subscriber.yield(event) }
    }

    private func emitLocked(_ event: Event) {
        state.withLock { emit(event, in: $0) }
    }
}
