import GroupCoordination
import GroupWire
import HLSInterstitials
import MediaTime
import PlayerEngine
import Synchronization

/// Coordinates an Interlude ``Player`` with a group over a ``GroupTransport`` (Apple's
/// `AVPlayerPlaybackCoordinator`, research/coordination.md §1.5): the user's rate changes and
/// seeks on the player become the group's, the group's come back to the player with the originator
/// `.coordinator`, and the player's stalls and breaks suspend it automatically.
///
///     let coordinator = PlayerPlaybackCoordinator(
///         player: player, transport: transport, clock: clock,
///         configuration: .init(participant: "alice", clockServer: 0, peers: [2, 3]))
///     Task { await coordinator.run() }
///     player.replaceCurrentItem(with: item)
///     player.play()                           // everyone starts together
///
/// The shell around pure parts, all on the player's clock:
/// - a ``GroupClockEstimator`` probing the group clock's keeper (a ``GroupClockServer``, or this
///   participant itself when `clockServer` is its own peer);
/// - a ``PlayerCoordinationBinding`` (the coordinator state machine and its glue to the
///   player): once the clock is synchronised it joins the group, and once the player's item is
///   ready to play it coordinates it;
/// - a ``GroupMessenger`` carrying ``CoordinationEnvelope``s reliably and in order per peer.
///
/// ``run()`` consumes the player's events and the transport's frames, sends frames in the order
/// they were made, observes the player's position every ``Configuration/observationInterval`` of
/// host time (drift correction, breaks entered and left) and wakes at the coordinator's
/// deadlines, the messenger's retransmissions and the clock probes. Commands to the player are
/// applied under the coordinator's lock, never across an `await`; the player never calls back into
/// the coordinator (its events arrive through a stream).
///
/// Automatic suspensions (from the binding): `stallRecovery` while the player rebuffers after a
/// stall (it ends when the player plays again, and the player moves to where the group is), and
/// `playingInterstitial` while the player is in a break of its own (a stitched ad, or an
/// interstitial whose content may vary). A scrubbing UI begins `userIsChangingCurrentTime` itself
/// with ``beginSuspension(for:)`` and ends it with ``Suspension/end(proposingNewTime:)``; that
/// reason holds the group by default.
public final class PlayerPlaybackCoordinator: Sendable {
    /// Who this participant is and how it reaches the group.
    public struct Configuration: Sendable {
        /// This participant's identity in the group (stable across reconnections).
        public var participant: CoordinatedPlaybackParticipant.ID
        /// The peer that keeps the group clock; this participant's own peer to keep it itself
        /// (it then answers the others' probes).
        public var clockServer: PeerID
        /// The other participants' peers known at the start (more are learned as they say hello).
        public var peers: [PeerID]
        /// How often the player's position is observed (drift, breaks), in host time.
        public var observationInterval: Duration = .milliseconds(250)
        /// The coordinator's settings beyond Apple's API.
        public var coordinator = PlaybackCoordinatorStateMachine.Configuration()
        /// The clock estimator's settings.
        public var clockEstimator = GroupClockEstimator.Configuration()
        /// The reliable channels' settings.
        public var channel = ReliableChannel<[UInt8]>.Configuration()

        /// `participant`, synchronising with `clockServer`, talking to `peers`.
        public init(participant: CoordinatedPlaybackParticipant.ID, clockServer: PeerID, peers: [PeerID] = []) {
            self.participant = participant
            self.clockServer = clockServer
            self.peers = peers
        }
    }

    /// What the coordinator reports, in order.
    public enum Event: Sendable, Hashable {
        /// The coordinator's own events (suspension reasons, other participants, the group's
        /// status, mismatches), Apple's notifications.
        case coordinator(PlaybackCoordinatorStateMachine.Event)
        /// A command the coordinator applied to the player, with the participant whose command it
        /// carries out (`nil`: the local participant's, or the coordinator re-aligning the player).
        /// Apple's rate-change and time-jump notifications carry the same originator.
        case playerCommand(PlayerCoordinationBinding.PlayerCommand, originator: CoordinatedPlaybackParticipant.ID?)
        /// The group clock became known well enough to join the group.
        case clockSynchronized(GroupClockEstimate)
        /// The player's current item is coordinated now, under this identifier.
        case itemCoordinated(String)
        /// A frame or message from a peer could not be understood.
        case messengerError(PeerID, GroupMessengerError)
        /// The transport refused a frame for a peer.
        case transportError(PeerID, String)
        /// The local player waits for others (the waiting policy holds the group for their ads or
        /// actions): who, and until when at the latest estimate; `nil` when the group goes on.
        /// This is the hook for playing other content (a promo, a recap) in a second player
        /// during the wait (S1.11).
        case groupWait(GroupWait?)
    }

    /// A wait for other participants, as ``Event/groupWait(_:)`` reports it.
    public struct GroupWait: Sendable, Hashable {
        /// Whom the group waits for, and why.
        public var blockers: [GroupTimeline.Blocker]
        /// When the wait should end at the latest, on the player's host clock, when every blocker
        /// says (the rest of an ad, a wait limit).
        public var expectedEnd: Duration?
        /// How long the wait should last from its start, when known.
        public var expectedDuration: Duration?
    }

    /// A suspension begun with ``PlayerPlaybackCoordinator/beginSuspension(for:)`` (Apple's
    /// `AVCoordinatedPlaybackSuspension`).
    public struct Suspension: Sendable {
        /// The coordinator's token.
        public let suspension: CoordinatedPlaybackSuspension
        private let coordinator: PlayerPlaybackCoordinator

        init(_ suspension: CoordinatedPlaybackSuspension, coordinator: PlayerPlaybackCoordinator) {
            self.suspension = suspension
            self.coordinator = coordinator
        }

        /// Why the participant is suspended (shared with the group).
        public var reason: CoordinatedPlaybackSuspension.Reason { suspension.reason }

        /// When it began, on the group clock.
        public var beginGroupTime: Duration { suspension.beginGroupTime }

        /// Ends the suspension; if it was the last, the player moves to the group's time and rate.
        public func end() { coordinator.end(suspension, proposing: nil) }

        /// Ends the suspension; if it was the last, the group moves to `time` on the primary
        /// timeline without changing its rate (otherwise the time is ignored).
        public func end(proposingNewTime time: MediaTime) { coordinator.end(suspension, proposing: .primary(time)) }

        /// Ends the suspension proposing a position (primary content or a break the group shares).
        public func end(proposingNewPosition position: IntegratedTimeline.Position) {
            coordinator.end(suspension, proposing: position)
        }
    }

    private struct State {
        var binding: PlayerCoordinationBinding
        var estimator: GroupClockEstimator
        var messenger: GroupMessenger
        var peers: [PeerID]
        var participants: [PeerID: CoordinatedPlaybackParticipant.ID] = [:]
        var isConnected = false
        var hasStartedItem = false
        var nextObservation: Duration?
        var coordinatorDeadline: Duration?
        var armed: [Duration] = []
        var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextSubscriber = 0
        var isWaitingForOthers = false
    }

    /// The player coordinated.
    public let player: Player
    /// The settings it was made with.
    public let configuration: Configuration
    private let transport: any GroupTransport
    private let identify: @Sendable (PlayerItem) -> String
    private let keepsGroupClock: Bool
    private let state: Mutex<State>
    private let playerEvents: AsyncStream<PlayerEvent>
    private let outbox: AsyncStream<GroupMessenger.Outgoing>
    private let outboxInput: AsyncStream<GroupMessenger.Outgoing>.Continuation
    private let timerRequests: AsyncStream<Duration>
    private let timerInput: AsyncStream<Duration>.Continuation
    private let sleepUntil: @Sendable (Duration) async throws -> Void

    /// A coordinator for `player` (which runs on `clock`) reaching the group through `transport`.
    ///
    /// - Parameter itemIdentifier: the identity of an item across participants whose URLs differ
    ///   (Apple's delegate `playbackCoordinator(_:identifierFor:)`); by default the item's
    ///   `contentIdentifier`, else its URL.
    public init<C: Clock>(
        player: Player,
        transport: some GroupTransport,
        clock: C,
        configuration: Configuration,
        itemIdentifier: @escaping @Sendable (PlayerItem) -> String = { $0.contentIdentifier ?? $0.url }
    ) where C.Duration == Duration {
        self.player = player
        self.configuration = configuration
        self.transport = transport
        identify = itemIdentifier
        keepsGroupClock = configuration.clockServer == transport.localPeer
        let base = clock.now
        let baseHostTime = player.hostTime
        sleepUntil = { deadline in try await clock.sleep(until: base.advanced(by: deadline - baseHostTime), tolerance: nil) }
        playerEvents = player.events()
        (outbox, outboxInput) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        (timerRequests, timerInput) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        let peers = configuration.peers.filter { $0 != transport.localPeer && $0 != configuration.clockServer }
        state = Mutex(
            State(
                binding: PlayerCoordinationBinding(participant: configuration.participant, configuration: configuration.coordinator),
                estimator: GroupClockEstimator(configuration: configuration.clockEstimator, startingAt: player.hostTime),
                messenger: GroupMessenger(localPeer: transport.localPeer, registry: .coordination, channelConfiguration: configuration.channel),
                peers: peers
            )
        )
    }

    deinit {
        state.withLock { state in
            for subscriber in state.subscribers.values { subscriber.finish() }
        }
        outboxInput.finish()
        timerInput.finish()
    }

    // MARK: Running

    /// Coordinates until the task is cancelled: consumes the player's events and the transport's
    /// frames, sends, probes the group clock, observes the player and wakes at deadlines. Call it
    /// once.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await event in self.playerEvents { self.handle(event) }
            }
            group.addTask {
                for await frame in self.transport.incomingFrames { self.handle(frame) }
            }
            group.addTask {
                for await outgoing in self.outbox {
                    do {
                        try await self.transport.send(outgoing.bytes, to: outgoing.destination)
                    } catch {
                        self.emit(.transportError(outgoing.destination, "\(error)"))
                    }
                }
            }
            start()
            for await deadline in timerRequests {
                group.addTask {
                    do { try await self.sleepUntil(deadline) } catch { return }
                    self.timerFired(deadline)
                }
            }
            group.cancelAll()
        }
    }

    /// The coordinator's events from now on.
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

    // MARK: Apple's API

    /// The other participants on the same item or another, for UI (Apple's `otherParticipants`).
    public var otherParticipants: [CoordinatedPlaybackParticipant] {
        state.withLock { $0.binding.coordinator.otherParticipants }
    }

    /// Why this participant does not take part in the group's playback now; empty when it does.
    public var suspensionReasons: [CoordinatedPlaybackSuspension.Reason] {
        state.withLock { $0.binding.coordinator.suspensionReasons }
    }

    /// The reasons the group waits out (the waiting policy; default: only
    /// `userIsChangingCurrentTime`). A new policy applies at once to suspensions in progress.
    public var suspensionReasonsThatTriggerWaiting: [CoordinatedPlaybackSuspension.Reason] {
        get { state.withLock { $0.binding.coordinator.suspensionReasonsThatTriggerWaiting } }
        set {
            perform { coordinator, groupTime in coordinator.setSuspensionReasonsThatTriggerWaiting(newValue, at: groupTime) }
        }
    }

    /// Whether a remote pause moves the player to the originator's pause time (default true).
    public var pauseSnapsToMediaTimeOfOriginator: Bool {
        get { state.withLock { $0.binding.coordinator.pauseSnapsToMediaTimeOfOriginator } }
        set { state.withLock { state in state.binding.configure { $0.pauseSnapsToMediaTimeOfOriginator = newValue } } }
    }

    /// How many participants a group may have before suspensions with `reason` stop holding it.
    public func participantLimitForWaitingOutSuspensions(withReason reason: CoordinatedPlaybackSuspension.Reason) -> Int {
        state.withLock { $0.binding.coordinator.participantLimitForWaitingOutSuspensions(withReason: reason) }
    }

    /// Sets ``participantLimitForWaitingOutSuspensions(withReason:)`` (Apple's
    /// `setParticipantLimit(_:forWaitingOutSuspensionsWithReason:)`).
    public func setParticipantLimit(_ limit: Int, forWaitingOutSuspensionsWithReason reason: CoordinatedPlaybackSuspension.Reason) {
        state.withLock { state in
            state.binding.configure { $0.setParticipantLimit(limit, forWaitingOutSuspensionsWithReason: reason) }
        }
    }

    /// Detaches the player from the group for `reason` until the suspension ends: the coordinator
    /// neither follows the group nor commands it, and tells the others why. Before the group clock
    /// is synchronised, the begin time is read on the host clock.
    public func beginSuspension(for reason: CoordinatedPlaybackSuspension.Reason) -> Suspension {
        let suspension = state.withLock { state -> CoordinatedPlaybackSuspension in
            let now = player.hostTime
            let (suspension, outputs) = state.binding.beginSuspension(for: reason, clock: groupClock(state), localTime: now)
            apply(outputs, in: &state, at: now)
            settle(&state)
            return suspension
        }
        return Suspension(suspension, coordinator: self)
    }

    fileprivate func end(_ suspension: CoordinatedPlaybackSuspension, proposing position: IntegratedTimeline.Position?) {
        state.withLock { state in
            let now = player.hostTime
            let outputs = state.binding.end(suspension, proposingNewTime: position, clock: groupClock(state), localTime: now)
            apply(outputs, in: &state, at: now)
            settle(&state)
        }
    }

    /// Where the coordinator expects the player to be at host time `hostTime`: primary content or a
    /// break; `nil` before the group's state for the item is known.
    public func expectedPosition(atHostTime hostTime: Duration) -> IntegratedTimeline.Position? {
        state.withLock { state in
            let groupTime = groupClock(state).groupTime(atLocalTime: hostTime)
            return state.binding.coordinator.expectedItemTime(atGroupTime: groupTime).map(PlayerCoordinationBinding.position)
        }
    }

    /// The primary item time the coordinator expects the player to be at, at host time `hostTime`
    /// (Apple's `expectedItemTime(atHostTime:)`); `nil` when unknown or inside a break.
    public func expectedItemTime(atHostTime hostTime: Duration) -> MediaTime? {
        guard case .primary(let time)? = expectedPosition(atHostTime: hostTime) else { return nil }
        return time
    }

    // MARK: Beyond Apple's API

    /// The item coordinated (Apple's delegating `currentItemIdentifier`).
    public var currentItemIdentifier: String? {
        state.withLock { $0.hasStartedItem ? $0.binding.itemIdentifier : nil }
    }

    /// What the group does now and whom it waits for.
    public var groupStatus: PlaybackCoordinatorStateMachine.GroupPlaybackStatus? {
        state.withLock { state in
            state.binding.coordinator.groupStatus(at: groupClock(state).groupTime(atLocalTime: player.hostTime))
        }
    }

    /// The group clock as this participant knows it (`nil` before the first probe's reply).
    public var clockEstimate: GroupClockEstimate? {
        state.withLock { keepsGroupClock ? .exact : $0.estimator.estimate }
    }

    /// Whether the participant has joined the group (its clock is synchronised).
    public var isConnected: Bool { state.withLock { $0.isConnected } }

    /// Drift corrections made so far (rate adjustments and re-anchoring seeks).
    public var correctionCount: Int { state.withLock { $0.binding.coordinator.driftCorrector.correctionCount } }

    /// A copy of the coordinator state machine, for inspection.
    public var stateMachine: PlaybackCoordinatorStateMachine { state.withLock { $0.binding.coordinator } }

    /// Another participant's peer joined the session.
    public func addPeer(_ peer: PeerID) {
        state.withLock { state in
            guard peer != transport.localPeer, peer != configuration.clockServer, !state.peers.contains(peer) else { return }
            state.peers.append(peer)
        }
    }

    /// A peer left the session: no wait outlives its participant.
    public func removePeer(_ peer: PeerID) {
        state.withLock { state in
            state.peers.removeAll { $0 == peer }
            guard let participant = state.participants.removeValue(forKey: peer), state.isConnected else { return }
            let now = player.hostTime
            apply(state.binding.participantLeft(participant, clock: groupClock(state), localTime: now), in: &state, at: now)
            settle(&state)
        }
    }

    // MARK: Inputs

    private func start() {
        state.withLock { state in
            if keepsGroupClock, !state.isConnected { connect(&state, at: player.hostTime) }
            settle(&state)
        }
    }

    private func handle(_ event: PlayerEvent) {
        state.withLock { state in
            if case .currentItemChanged = event.kind {
                state.hasStartedItem = false
                state.nextObservation = nil
            }
            guard state.isConnected else { return }
            let now = player.hostTime
            let clock = groupClock(state)
            if !state.hasStartedItem {
                if case .itemStatusChanged(.readyToPlay) = event.kind { startItem(&state, at: now) }
            } else {
                let machine = player.machineState
                if PlayerCoordinationBinding.mayChangeMapping(event) {
                    apply(state.binding.timelineChanged(player: machine, clock: clock, localTime: now), in: &state, at: now)
                }
                apply(state.binding.playerEvent(event, player: machine, clock: clock), in: &state, at: now)
            }
            settle(&state)
        }
    }

    private func handle(_ frame: GroupTransportFrame) {
        state.withLock { state in
            let now = player.hostTime
            let output = state.messenger.receive(frame.bytes, from: frame.sender, at: now)
            send(output.frames)
            for (sender, error) in output.errors { emit(.messengerError(sender, error), in: state) }
            for received in output.messages {
                switch received.message {
                case let reply as ClockProbeReply:
                    guard received.sender == configuration.clockServer, !keepsGroupClock else { continue }
                    state.estimator.receive(reply, at: now)
                    if !state.isConnected, state.estimator.isSynchronized { connect(&state, at: now) }
                case let probe as ClockProbe:
                    guard keepsGroupClock, let reply = try? state.messenger.sendUnreliably(
                        ClockProbeReply(answering: probe, receivedAt: now, sentAt: now), to: received.sender)
                    else { continue }
                    send([reply])
                case let envelope as CoordinationEnvelope:
                    state.participants[received.sender] = envelope.sender
                    if !state.peers.contains(received.sender) { state.peers.append(received.sender) }
                    guard state.isConnected else { continue }
                    let outputs = state.binding.receive(envelope.message, from: envelope.sender, clock: groupClock(state), localTime: now)
                    apply(outputs, in: &state, at: now)
                default:
                    continue
                }
            }
            settle(&state)
        }
    }

    private func timerFired(_ deadline: Duration) {
        state.withLock { state in
            if let index = state.armed.firstIndex(of: deadline) { state.armed.remove(at: index) }
            settle(&state)
        }
    }

    private func perform(_ body: (inout PlaybackCoordinatorStateMachine, Duration) -> [PlaybackCoordinatorStateMachine.Action]) {
        state.withLock { state in
            let now = player.hostTime
            let outputs = state.binding.perform(clock: groupClock(state), localTime: now, body)
            apply(outputs, in: &state, at: now)
            settle(&state)
        }
    }

    // MARK: Steps (under the lock)

    /// The group clock as known now: exact when this participant keeps it; before the first
    /// reply, the host clock stands in.
    private func groupClock(_ state: State) -> GroupClockEstimate {
        keepsGroupClock ? .exact : state.estimator.estimate ?? .exact
    }

    private func connect(_ state: inout State, at now: Duration) {
        state.isConnected = true
        let clock = groupClock(state)
        emit(.clockSynchronized(clock), in: state)
        apply(state.binding.connect(clock: clock, localTime: now), in: &state, at: now)
        startItem(&state, at: now)
    }

    private func startItem(_ state: inout State, at now: Duration) {
        guard let item = player.currentItem else { return }
        let machine = player.machineState
        guard machine.itemStatus == .readyToPlay else { return }
        let identifier = identify(item)
        state.hasStartedItem = true
        state.nextObservation = now + configuration.observationInterval
        emit(.itemCoordinated(identifier), in: state)
        apply(state.binding.startItem(identifier, player: machine, clock: groupClock(state), localTime: now), in: &state, at: now)
    }

    /// Does whatever is due now (a probe, retransmissions, the coordinator's deadline, an
    /// observation) and arms the timer for what comes next.
    private func settle(_ state: inout State) {
        let now = player.hostTime
        if !keepsGroupClock, let probe = state.estimator.makeProbeIfDue(at: now),
            let outgoing = try? state.messenger.sendUnreliably(probe, to: configuration.clockServer)
        {
            send([outgoing])
        }
        if let deadline = state.messenger.nextDeadline, deadline <= now { send(state.messenger.tick(at: now)) }
        if state.isConnected, state.hasStartedItem {
            let clock = groupClock(state)
            if let deadline = state.coordinatorDeadline, deadline <= now {
                apply(state.binding.advance(clock: clock, localTime: now), in: &state, at: now)
            }
            if let observation = state.nextObservation, observation <= now {
                let next = observation + configuration.observationInterval
                state.nextObservation = next > now ? next : now + configuration.observationInterval
                apply(state.binding.observe(player: player.machineState, clock: clock, localTime: now), in: &state, at: now)
            }
            state.coordinatorDeadline = state.binding.nextDeadline(clock: clock, localTime: now)
        } else {
            state.coordinatorDeadline = nil
        }
        arm(&state, at: now)
    }

    private func arm(_ state: inout State, at now: Duration) {
        var candidates: [Duration] = []
        if !keepsGroupClock { candidates.append(state.estimator.nextProbeTime) }
        if let deadline = state.messenger.nextDeadline { candidates.append(deadline) }
        if let deadline = state.coordinatorDeadline { candidates.append(deadline) }
        if let observation = state.nextObservation, state.hasStartedItem { candidates.append(observation) }
        guard let next = candidates.min() else { return }
        // A deadline mapped from the group clock can round to now or just before: wake a
        // nanosecond later, when the group clock has passed it.
        let at = max(next, now + .nanoseconds(1))
        if let earliest = state.armed.min(), earliest <= at { return }
        state.armed.append(at)
        timerInput.yield(at)
    }

    private func apply(_ outputs: [PlayerCoordinationBinding.Output], in state: inout State, at now: Duration) {
        for output in outputs {
            switch output {
            case .player(let command, let originator):
                // Between items (the new one not ready yet), the old item's commands would move
                // the new one.
                guard state.hasStartedItem else { continue }
                apply(command)
                emit(.playerCommand(command, originator: originator), in: state)
            case .send(let message, let recipients):
                let targets: [PeerID]
                switch recipients {
                case .all: targets = state.peers
                case .participant(let id): targets = state.participants.filter { $0.value == id }.map(\.key).sorted()
                }
                guard !targets.isEmpty else { continue }
                do {
                    send(try state.messenger.send(CoordinationEnvelope(sender: configuration.participant, message: message), to: targets, at: now))
                } catch {
                    emit(.messengerError(transport.localPeer, error), in: state)
                }
            case .event(let event):
                emit(.coordinator(event), in: state)
                if case .groupStatusChanged(let status) = event { reportWait(status, in: &state, at: now) }
            }
        }
    }

    /// Carries out a command on the player (``PlayerCoordinationBinding/PlayerCommand/machineInputs``
    /// through the player's API). A held player is given its anchored start before the hold is
    /// released, so that it goes from waiting for the group to waiting for the start time without
    /// reporting a moment of playing in between.
    private func apply(_ command: PlayerCoordinationBinding.PlayerCommand) {
        switch command {
        case .play(let rate, let position, let hostTime):
            player.play(atRate: rate, from: position, atHostTime: hostTime, originator: .coordinator)
            player.setCoordinationHold(false)
        case .pause(let position):
            player.setCoordinationHold(false)
            player.setRate(0, originator: .coordinator)
            if let position { player.jump(to: position, originator: .coordinator) }
        case .hold(let position, let rate):
            player.jump(to: position, originator: .coordinator)
            player.setCoordinationHold(true)
            player.setRate(rate, originator: .coordinator)
        case .setRate(let rate):
            player.setRate(rate, originator: .coordinator)
        }
    }

    /// Reports the start and the end of a wait for others (not for the local participant).
    private func reportWait(_ status: PlaybackCoordinatorStateMachine.GroupPlaybackStatus, in state: inout State, at now: Duration) {
        let waitsForOthers = status.status == .waiting && !status.blockers.isEmpty
            && !status.blockers.contains { $0.participant == configuration.participant }
        if waitsForOthers {
            let clock = groupClock(state)
            let ends = status.blockers.map(\.expectedEnd)
            // An end already passed is an estimate that did not know the break's length: unknown.
            let end = ends.contains(nil) ? nil : ends.compactMap { $0 }.max().map { clock.localTime(atGroupTime: $0) }.flatMap { $0 > now ? $0 : nil }
            state.isWaitingForOthers = true
            emit(.groupWait(GroupWait(blockers: status.blockers, expectedEnd: end, expectedDuration: end.map { max(.zero, $0 - now) })), in: state)
        } else if state.isWaitingForOthers {
            state.isWaitingForOthers = false
            emit(.groupWait(nil), in: state)
        }
    }

    private func send(_ frames: [GroupMessenger.Outgoing]) {
        for frame in frames { outboxInput.yield(frame) }
    }

    private func emit(_ event: Event, in state: State) {
        for subscriber in state.subscribers.values { subscriber.yield(event) }
    }

    private func emit(_ event: Event) {
        state.withLock { emit(event, in: $0) }
    }
}
