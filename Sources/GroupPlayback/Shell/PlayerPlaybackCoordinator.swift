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
/// - a ``ParticipantDriver`` (the coordinator bound to the player, the group-clock estimate, the
///   observations and deadlines): it probes the group clock's keeper (a ``GroupClockServer``, or
///   this participant itself when `clockServer` is its own peer), joins the group once the clock
///   is synchronised, and coordinates the player's item once it is ready to play;
/// - a ``GroupMessenger`` carrying ``CoordinationEnvelope``s reliably and in order per peer; the
///   shell maps participants to the peers they speak from, and sends what is for everyone to
///   every peer it knows.
///
/// ``run()`` consumes the player's events and the transport's frames, sends frames in the order
/// they were made, and wakes at the driver's deadlines (the clock probes, the coordinator's
/// deadlines, the observations of the player every ``Configuration/observationInterval`` of host
/// time) and the messenger's retransmissions. Its inputs run one at a time, in the order they
/// came: each reads the player (with no lock held), feeds the driver under the coordinator's
/// lock, and collects what the driver asks for; the lock let go, that thread commands the player,
/// sends the frames and reports the events. Nothing calls out of the coordinator with its lock
/// held; the player never calls back into it (its events arrive through a stream).
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
    public typealias GroupWait = ParticipantDriver.GroupWait

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
        var driver: ParticipantDriver
        var messenger: GroupMessenger
        var peers: [PeerID]
        var participants: [PeerID: CoordinatedPlaybackParticipant.ID] = [:]
        var armed: [Duration] = []
        var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextSubscriber = 0
        /// Inputs waiting for their turn, in order; ``isRunning`` while a thread works through
        /// them.
        var jobs: [Job] = []
        var isRunning = false
        /// What the last job asked for that calls out, performed after the lock is let go.
        var outbox: [Effect] = []
        /// How many times settling has asked the driver again since the last input (at most 4).
        var settleRounds = 0
    }

    /// An input to the coordinator: `body` runs under the lock at host time `now`, with the
    /// player as read just before the lock was taken when `readsPlayer`.
    private struct Job: Sendable {
        var readsPlayer: Bool
        var body: @Sendable (PlayerPlaybackCoordinator, inout State, _ now: Duration, _ player: PlaybackMachine?) -> Void
    }

    /// Work that leaves the coordinator, performed with its lock let go.
    private enum Effect {
        case command(PlayerCoordinationBinding.PlayerCommand)
        case send([GroupMessenger.Outgoing])
        case emit(Event, [AsyncStream<Event>.Continuation])
        case arm(Duration)
    }

    /// The player coordinated.
    public let player: Player
    /// The settings it was made with.
    public let configuration: Configuration
    private let transport: any GroupTransport
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
        keepsGroupClock = configuration.clockServer == transport.localPeer
        let base = clock.now
        let baseHostTime = player.hostTime
        sleepUntil = { deadline in try await clock.sleep(until: base.advanced(by: deadline - baseHostTime), tolerance: nil) }
        playerEvents = player.events()
        (outbox, outboxInput) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        (timerRequests, timerInput) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        let peers = configuration.peers.filter { $0 != transport.localPeer && $0 != configuration.clockServer }
        var driverConfiguration = ParticipantDriver.Configuration(participant: configuration.participant, keepsGroupClock: keepsGroupClock)
        driverConfiguration.observationInterval = configuration.observationInterval
        driverConfiguration.coordinator = configuration.coordinator
        driverConfiguration.clockEstimator = configuration.clockEstimator
        state = Mutex(
            State(
                driver: ParticipantDriver(configuration: driverConfiguration, startingAt: player.hostTime, itemIdentifier: itemIdentifier),
                messenger: GroupMessenger(localPeer: transport.localPeer, registry: .coordination, channelConfiguration: configuration.channel),
                peers: peers
            )
        )
    }

    deinit {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber.finish() }
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
        state.withLock { $0.driver.binding.coordinator.otherParticipants }
    }

    /// Why this participant does not take part in the group's playback now; empty when it does.
    public var suspensionReasons: [CoordinatedPlaybackSuspension.Reason] {
        state.withLock { $0.driver.binding.coordinator.suspensionReasons }
    }

    /// The reasons the group waits out (the waiting policy; default: only
    /// `userIsChangingCurrentTime`). A new policy applies at once to suspensions in progress.
    public var suspensionReasonsThatTriggerWaiting: [CoordinatedPlaybackSuspension.Reason] {
        get { state.withLock { $0.driver.binding.coordinator.suspensionReasonsThatTriggerWaiting } }
        set {
            perform { coordinator, groupTime in coordinator.setSuspensionReasonsThatTriggerWaiting(newValue, at: groupTime) }
        }
    }

    /// Whether a remote pause moves the player to the originator's pause time (default true).
    public var pauseSnapsToMediaTimeOfOriginator: Bool {
        get { state.withLock { $0.driver.binding.coordinator.pauseSnapsToMediaTimeOfOriginator } }
        set { state.withLock { state in state.driver.configure { $0.pauseSnapsToMediaTimeOfOriginator = newValue } } }
    }

    /// How many participants a group may have before suspensions with `reason` stop holding it.
    public func participantLimitForWaitingOutSuspensions(withReason reason: CoordinatedPlaybackSuspension.Reason) -> Int {
        state.withLock { $0.driver.binding.coordinator.participantLimitForWaitingOutSuspensions(withReason: reason) }
    }

    /// Sets ``participantLimitForWaitingOutSuspensions(withReason:)`` (Apple's
    /// `setParticipantLimit(_:forWaitingOutSuspensionsWithReason:)`).
    public func setParticipantLimit(_ limit: Int, forWaitingOutSuspensionsWithReason reason: CoordinatedPlaybackSuspension.Reason) {
        state.withLock { state in
            state.driver.configure { $0.setParticipantLimit(limit, forWaitingOutSuspensionsWithReason: reason) }
        }
    }

    /// Detaches the player from the group for `reason` until the suspension ends: the coordinator
    /// neither follows the group nor commands it, and tells the others why. Before the group clock
    /// is synchronised, the begin time is read on the host clock.
    public func beginSuspension(for reason: CoordinatedPlaybackSuspension.Reason) -> Suspension {
        let now = player.hostTime
        let suspension = state.withLock { state -> CoordinatedPlaybackSuspension in
            let (suspension, outputs) = state.driver.beginSuspension(for: reason, at: now)
            apply(outputs, in: &state, at: now)
            return suspension
        }
        // What it asked for goes out, and what fell due is done, in turn with the other inputs.
        submit(Job(readsPlayer: false) { coordinator, state, _, _ in coordinator.settleNext(&state) })
        return Suspension(suspension, coordinator: self)
    }

    fileprivate func end(_ suspension: CoordinatedPlaybackSuspension, proposing position: IntegratedTimeline.Position?) {
        submit(Job(readsPlayer: false) { coordinator, state, now, _ in
            coordinator.apply(state.driver.endSuspension(suspension, proposing: position, at: now), in: &state, at: now)
            coordinator.settleNext(&state)
        })
    }

    /// Where the coordinator expects the player to be at host time `hostTime`: primary content or a
    /// break; `nil` before the group's state for the item is known.
    public func expectedPosition(atHostTime hostTime: Duration) -> IntegratedTimeline.Position? {
        state.withLock { state in
            let groupTime = state.driver.groupClock.groupTime(atLocalTime: hostTime)
            return state.driver.binding.coordinator.expectedItemTime(atGroupTime: groupTime).map(PlayerCoordinationBinding.position)
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
        state.withLock { $0.driver.currentItemIdentifier }
    }

    /// What the group does now and whom it waits for.
    public var groupStatus: PlaybackCoordinatorStateMachine.GroupPlaybackStatus? {
        let now = player.hostTime
        return state.withLock { state in
            state.driver.binding.coordinator.groupStatus(at: state.driver.groupClock.groupTime(atLocalTime: now))
        }
    }

    /// The group clock as this participant knows it (`nil` before the first probe's reply).
    public var clockEstimate: GroupClockEstimate? {
        state.withLock { $0.driver.clockEstimate }
    }

    /// Whether the participant has joined the group (its clock is synchronised).
    public var isConnected: Bool { state.withLock { $0.driver.isJoined } }

    /// Drift corrections made so far (rate adjustments and re-anchoring seeks).
    public var correctionCount: Int { state.withLock { $0.driver.binding.coordinator.driftCorrector.correctionCount } }

    /// A copy of the coordinator state machine, for inspection.
    public var stateMachine: PlaybackCoordinatorStateMachine { state.withLock { $0.driver.binding.coordinator } }

    /// Another participant's peer joined the session.
    public func addPeer(_ peer: PeerID) {
        state.withLock { state in
            guard peer != transport.localPeer, peer != configuration.clockServer, !state.peers.contains(peer) else { return }
            state.peers.append(peer)
        }
    }

    /// A peer left the session: no wait outlives its participant.
    public func removePeer(_ peer: PeerID) {
        submit(Job(readsPlayer: false) { coordinator, state, now, _ in
            state.peers.removeAll { $0 == peer }
            guard let participant = state.participants.removeValue(forKey: peer), state.driver.isJoined else { return }
            coordinator.apply(state.driver.participantLeft(participant, at: now), in: &state, at: now)
            coordinator.settleNext(&state)
        })
    }

    // MARK: Inputs

    private func start() {
        submit(Job(readsPlayer: true) { coordinator, state, now, player in
            coordinator.apply(state.driver.connect(player: player!, at: now), in: &state, at: now)
            coordinator.settleNext(&state)
        })
    }

    private func handle(_ event: PlayerEvent) {
        submit(Job(readsPlayer: true) { coordinator, state, now, player in
            guard state.driver.isJoined else { return }
            coordinator.apply(state.driver.playerEvent(event, player: player!, at: now), in: &state, at: now)
            coordinator.settleNext(&state)
        })
    }

    private func handle(_ frame: GroupTransportFrame) {
        submit(Job(readsPlayer: true) { coordinator, state, now, player in
            coordinator.receive(frame, in: &state, at: now, player: player!)
            coordinator.settleNext(&state)
        })
    }

    private func receive(_ frame: GroupTransportFrame, in state: inout State, at now: Duration, player: PlaybackMachine) {
        let output = state.messenger.receive(frame.bytes, from: frame.sender, at: now)
        send(output.frames, in: &state)
        for (sender, error) in output.errors { emit(.messengerError(sender, error), in: &state) }
        for received in output.messages {
            switch received.message {
            case let reply as ClockProbeReply:
                guard received.sender == configuration.clockServer, !keepsGroupClock else { continue }
                apply(state.driver.clockProbeReply(reply, player: player, at: now), in: &state, at: now)
            case let probe as ClockProbe:
                guard keepsGroupClock, let reply = try? state.messenger.sendUnreliably(
                    ClockProbeReply(answering: probe, receivedAt: now, sentAt: now), to: received.sender)
                else { continue }
                send([reply], in: &state)
            case let envelope as CoordinationEnvelope:
                state.participants[received.sender] = envelope.sender
                if !state.peers.contains(received.sender) { state.peers.append(received.sender) }
                apply(state.driver.receive(envelope.message, from: envelope.sender, at: now), in: &state, at: now)
            default:
                continue
            }
        }
    }

    private func timerFired(_ deadline: Duration) {
        submit(Job(readsPlayer: false) { coordinator, state, _, _ in
            if let index = state.armed.firstIndex(of: deadline) { state.armed.remove(at: index) }
            coordinator.settleNext(&state)
        })
    }

    private func perform(_ body: @escaping @Sendable (inout PlaybackCoordinatorStateMachine, Duration) -> [PlaybackCoordinatorStateMachine.Action]) {
        submit(Job(readsPlayer: false) { coordinator, state, now, _ in
            coordinator.apply(state.driver.perform(at: now, body), in: &state, at: now)
            coordinator.settleNext(&state)
        })
    }

    // MARK: Running the inputs

    /// Queues `job`; unless another thread is working through the queue, this one does: for each
    /// job it reads the host time and, if the job needs it, the player (no lock held), runs the
    /// job under the lock, then performs what the job asked for with the lock let go. So the
    /// inputs run in the order they came and each reads the player as the commands before it
    /// left it, as when they were applied under the lock.
    private func submit(_ job: Job) {
        let runs = state.withLock { state -> Bool in
            state.jobs.append(job)
            guard !state.isRunning else { return false }
            state.isRunning = true
            return true
        }
        guard runs else { return }
        while true {
            let next = state.withLock { state -> Job? in
                guard !state.jobs.isEmpty else {
                    state.isRunning = false
                    return nil
                }
                return state.jobs.removeFirst()
            }
            guard let next else { return }
            let now = player.hostTime
            let machine = next.readsPlayer ? player.machineState : nil
            let effects = state.withLock { state -> [Effect] in
                next.body(self, &state, now, machine)
                defer { state.outbox.removeAll(keepingCapacity: true) }
                return state.outbox
            }
            for effect in effects { perform(effect) }
        }
    }

    private func perform(_ effect: Effect) {
        switch effect {
        case .command(let command): player.apply(command)
        case .send(let frames): for frame in frames { outboxInput.yield(frame) }
        case .emit(let event, let subscribers): for subscriber in subscribers { subscriber.yield(event) }
        case .arm(let deadline): timerInput.yield(deadline)
        }
    }

    // MARK: Steps (under the lock)

    /// Makes whatever is due the next job: the driver's probes, deadlines and observations, the
    /// messenger's retransmissions, and the timer for what comes next.
    private func settleNext(_ state: inout State) {
        state.settleRounds = 0
        state.jobs.insert(Job(readsPlayer: false) { coordinator, state, now, _ in coordinator.settle(&state, at: now) }, at: 0)
    }

    /// Does what is due now. While the driver is due, it is asked again with the player read
    /// afresh, after the commands it gave are applied (it leaves an observation due when it has
    /// just commanded the player); then the messenger's retransmissions and the timer.
    private func settle(_ state: inout State, at now: Duration) {
        if state.settleRounds < 4, let deadline = state.driver.nextDeadline, deadline <= now {
            state.settleRounds += 1
            state.jobs.insert(Job(readsPlayer: true) { coordinator, state, now, player in
                coordinator.apply(state.driver.timerFired(player: player!, at: now), in: &state, at: now)
                state.jobs.insert(Job(readsPlayer: false) { coordinator, state, now, _ in coordinator.settle(&state, at: now) }, at: 0)
            }, at: 0)
            return
        }
        if let deadline = state.messenger.nextDeadline, deadline <= now { send(state.messenger.tick(at: now), in: &state) }
        arm(&state, at: now)
    }

    private func arm(_ state: inout State, at now: Duration) {
        var candidates: [Duration] = []
        if let deadline = state.driver.nextDeadline { candidates.append(deadline) }
        if let deadline = state.messenger.nextDeadline { candidates.append(deadline) }
        guard let next = candidates.min() else { return }
        // A deadline mapped from the group clock can round to now or just before: wake a
        // nanosecond later, when the group clock has passed it.
        let at = max(next, now + .nanoseconds(1))
        if let earliest = state.armed.min(), earliest <= at { return }
        state.armed.append(at)
        state.outbox.append(.arm(at))
    }

    private func apply(_ outputs: [ParticipantDriver.Output], in state: inout State, at now: Duration) {
        for output in outputs {
            switch output {
            case .player(let command, let originator):
                state.outbox.append(.command(command))
                emit(.playerCommand(command, originator: originator), in: &state)
            case .send(let message, let recipients):
                let targets: [PeerID]
                switch recipients {
                case .all: targets = state.peers
                case .participant(let id): targets = state.participants.filter { $0.value == id }.map(\.key).sorted()
                }
                guard !targets.isEmpty else { continue }
                do {
                    send(try state.messenger.send(CoordinationEnvelope(sender: configuration.participant, message: message), to: targets, at: now), in: &state)
                } catch {
                    emit(.messengerError(transport.localPeer, error), in: &state)
                }
            case .probe(let probe):
                guard let outgoing = try? state.messenger.sendUnreliably(probe, to: configuration.clockServer) else { continue }
                send([outgoing], in: &state)
            case .event(let event):
                emit(Event(event), in: &state)
            }
        }
    }

    private func send(_ frames: [GroupMessenger.Outgoing], in state: inout State) {
        guard !frames.isEmpty else { return }
        state.outbox.append(.send(frames))
    }

    private func emit(_ event: Event, in state: inout State) {
        state.outbox.append(.emit(event, Array(state.subscribers.values)))
    }

    /// Reports `event` in turn with the other inputs' events.
    private func emit(_ event: Event) {
        submit(Job(readsPlayer: false) { coordinator, state, _, _ in coordinator.emit(event, in: &state) })
    }
}

extension PlayerPlaybackCoordinator.Event {
    /// A driver's event as the coordinator reports it.
    init(_ event: ParticipantDriver.Event) {
        switch event {
        case .coordinator(let event): self = .coordinator(event)
        case .clockSynchronized(let estimate): self = .clockSynchronized(estimate)
        case .itemCoordinated(let identifier): self = .itemCoordinated(identifier)
        case .groupWait(let wait): self = .groupWait(wait)
        }
    }
}
