import GroupCoordination
import GroupWire
import HLSInterstitials
import MediaTime
import PlayerEngine

/// One participant of a coordinated group, whatever carries its messages: the
/// ``PlayerCoordinationBinding`` (the coordinator and its glue to the player), the group-clock
/// estimate, the coordinator's deadline, the observation of the player, joining the group and
/// starting its item, and the reports of waits for others. Every shell that runs a participant
/// drives one: ``PlayerPlaybackCoordinator`` over peers, the group simulator on virtual time, a
/// client that reaches the group through a server.
///
/// A pure state machine on the participant's local (host) clock: each input says what happened
/// and when, and returns what to do, in order.
///
/// - ``Output/player(_:originator:)``: a command for the player, anchored on local host time;
///   carry it out with ``PlayerCoordinationBinding/PlayerCommand/machineInputs``, in that order.
/// - ``Output/send(_:to:)``: a message for every other participant or for one; whom that reaches
///   (peers, a server's fan-out) is the shell's business.
/// - ``Output/probe(_:)``: a clock probe for whoever keeps the group clock; feed its reply to
///   ``clockProbeReply(_:player:at:)``.
/// - ``Output/event(_:)``: what the app may show.
///
/// After each input, call ``timerFired(player:at:)`` when local time reaches ``nextDeadline``.
/// The driver never reads the player after commanding it in the same input: an observation that
/// falls due then is left due, and ``nextDeadline`` is the current time (call again once the
/// commands are carried out).
public struct ParticipantDriver: Sendable {
    /// Who the participant is and how it keeps in step.
    public struct Configuration: Sendable {
        /// The participant's identity in the group (stable across reconnections).
        public var participant: CoordinatedPlaybackParticipant.ID
        /// Whether the participant's own clock is the group clock (it keeps it for the others and
        /// sends no probes).
        public var keepsGroupClock: Bool
        /// How often the player's position is observed (drift, breaks), in host time.
        public var observationInterval: Duration = .milliseconds(250)
        /// The coordinator's settings beyond Apple's API.
        public var coordinator = PlaybackCoordinatorStateMachine.Configuration()
        /// The clock estimator's settings.
        public var clockEstimator = GroupClockEstimator.Configuration()

        /// `participant`, keeping the group clock itself or not.
        public init(participant: CoordinatedPlaybackParticipant.ID, keepsGroupClock: Bool = false) {
            self.participant = participant
            self.keepsGroupClock = keepsGroupClock
        }
    }

    /// What to do, in order.
    public enum Output: Sendable, Hashable {
        /// Apply this to the player; `originator` is the participant whose command it carries out
        /// (`nil`: the local participant's, or the coordinator re-aligning the player).
        case player(PlayerCoordinationBinding.PlayerCommand, originator: CoordinatedPlaybackParticipant.ID?)
        /// Send this to every other participant, or to one.
        case send(CoordinationMessage, to: PlaybackCoordinatorStateMachine.Recipients)
        /// Send this probe to whoever keeps the group clock.
        case probe(ClockProbe)
        /// Report this.
        case event(Event)
    }

    /// What the participant reports.
    public enum Event: Sendable, Hashable {
        /// The coordinator's own events (suspension reasons, other participants, the group's
        /// status, mismatches), Apple's notifications.
        case coordinator(PlaybackCoordinatorStateMachine.Event)
        /// The group clock became known well enough to join the group, and the participant joined.
        case clockSynchronized(GroupClockEstimate)
        /// The player's current item is coordinated now, under this identifier.
        case itemCoordinated(String)
        /// The local player waits for others (the waiting policy holds the group for their ads or
        /// actions): who, and until when at the latest estimate; `nil` when the group goes on.
        case groupWait(GroupWait?)
    }

    /// A wait for other participants, as ``Event/groupWait(_:)`` reports it.
    public struct GroupWait: Sendable, Hashable {
        /// Whom the group waits for, and why.
        public var blockers: [GroupTimeline.Blocker]
        /// When the wait should end at the latest, on the participant's host clock, when every
        /// blocker says (the rest of an ad, a wait limit).
        public var expectedEnd: Duration?
        /// How long the wait should last from its start, when known.
        public var expectedDuration: Duration?
    }

    /// Where the participant is in joining the group.
    private enum Phase: Sendable {
        /// Not connected yet.
        case idle
        /// Connected, waiting for the group clock.
        case synchronizing
        /// In the group; coordinating the player's item once it is ready to play.
        case joined(Item?)
    }

    /// The item coordinated and the times it is looked after at.
    private struct Item: Sendable {
        var nextObservation: Duration
        var coordinatorDeadline: Deadline?
        /// The next start or end of a stitched ad the player gets to, as it plays now.
        var stitchedAdBoundary: PlayerCoordinationBinding.StitchedAdBoundary?
        /// The last stitched-ad boundary the player got to (so that one it stands on is reported
        /// once).
        var handledBoundary: MediaTime?
    }

    /// Something from the group that came before the participant joined it.
    private enum EarlyInput: Sendable {
        case message(CoordinationMessage, from: CoordinatedPlaybackParticipant.ID)
        case departure(CoordinatedPlaybackParticipant.ID)
    }

    /// The most inputs kept from before joining (a server's snapshot holds at most 1,024 events);
    /// beyond it the oldest go.
    static let maximumEarlyInputs = 4_096

    /// The coordinator's next deadline, on the group clock and where the estimate puts it locally.
    private struct Deadline: Sendable {
        var local: Duration
        var group: Duration
    }

    /// The settings it was made with.
    public let configuration: Configuration
    /// The coordinator and its glue to the player.
    public private(set) var binding: PlayerCoordinationBinding
    private var estimator: GroupClockEstimator
    private let identify: @Sendable (PlayerItem) -> String
    private var phase = Phase.idle
    private var isWaitingForOthers = false
    /// What the group said before the participant joined it, in order, for the coordinator once
    /// it joins: a server sends the session's state with its welcome, before the clock is known.
    private var early: [EarlyInput] = []

    /// A participant whose clock reads `now`; `itemIdentifier` names an item across participants
    /// whose URLs differ (Apple's delegate `playbackCoordinator(_:identifierFor:)`).
    public init(
        configuration: Configuration,
        startingAt now: Duration,
        itemIdentifier: @escaping @Sendable (PlayerItem) -> String = { $0.contentIdentifier ?? $0.url }
    ) {
        self.configuration = configuration
        binding = PlayerCoordinationBinding(participant: configuration.participant, configuration: configuration.coordinator)
        estimator = GroupClockEstimator(configuration: configuration.clockEstimator, startingAt: now)
        identify = itemIdentifier
    }

    // MARK: State

    /// Whether the participant has joined the group (its clock is synchronised).
    public var isJoined: Bool {
        if case .joined = phase { return true }
        return false
    }

    /// Whether the player's current item is coordinated.
    public var hasStartedItem: Bool {
        if case .joined(_?) = phase { return true }
        return false
    }

    /// The item coordinated, while it is.
    public var currentItemIdentifier: String? { hasStartedItem ? binding.itemIdentifier : nil }

    /// The group clock as known now: exact when the participant keeps it; before the first reply,
    /// the host clock stands in.
    public var groupClock: GroupClockEstimate {
        configuration.keepsGroupClock ? .exact : estimator.estimate ?? .exact
    }

    /// The group clock's estimate (`nil` before the first probe's reply).
    public var clockEstimate: GroupClockEstimate? {
        configuration.keepsGroupClock ? .exact : estimator.estimate
    }

    /// When ``timerFired(player:at:)`` is next due, on the local clock: the next probe, the
    /// coordinator's deadline, the next observation or the player getting to a stitched ad's start
    /// or end; `nil` before ``connect(player:at:)``.
    public var nextDeadline: Duration? {
        var next: Duration? = isProbing ? estimator.nextProbeTime : nil
        if case .joined(let item?) = phase {
            next = Self.earliest(next, item.nextObservation)
            next = Self.earliest(next, item.coordinatorDeadline?.local)
            next = Self.earliest(next, item.stitchedAdBoundary?.localTime)
        }
        return next
    }

    private var isProbing: Bool {
        if configuration.keepsGroupClock { return false }
        if case .idle = phase { return false }
        return true
    }

    private static func earliest(_ a: Duration?, _ b: Duration?) -> Duration? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    // MARK: Inputs

    /// The participant reaches the group (at the start, or again after a disconnection): it probes
    /// the group clock and joins once the clock is known (at once when it keeps the clock itself);
    /// already in the group, it tells the others its state again.
    public mutating func connect(player: PlaybackMachine, at now: Duration) -> [Output] {
        var outputs: [Output] = []
        switch phase {
        case .idle:
            phase = .synchronizing
            if configuration.keepsGroupClock || estimator.isSynchronized { join(player: player, at: now, into: &outputs) }
        case .synchronizing:
            break
        case .joined:
            translate(binding.connect(clock: groupClock, localTime: now), at: now, into: &outputs)
        }
        settle(player: player, at: now, into: &outputs)
        return outputs
    }

    /// The reply to one of the participant's probes, from whoever keeps the group clock. The player
    /// is read only when the participant joins the group with it.
    public mutating func clockProbeReply(_ reply: ClockProbeReply, player: @autoclosure () -> PlaybackMachine, at now: Duration) -> [Output] {
        guard !configuration.keepsGroupClock else { return [] }
        var outputs: [Output] = []
        estimator.receive(reply, at: now)
        if case .synchronizing = phase, estimator.isSynchronized { join(player: player(), at: now, into: &outputs) }
        settle(at: now, into: &outputs)
        return outputs
    }

    /// Something the player reported: its item becoming ready is coordinated; the user's rate
    /// changes and seeks go to the group, stalls suspend, a timeline change updates the mapping.
    /// `player` is its state now.
    public mutating func playerEvent(_ event: PlayerEvent, player: PlaybackMachine, at now: Duration) -> [Output] {
        if case .currentItemChanged = event.kind, case .joined = phase { phase = .joined(nil) }
        guard case .joined(let item) = phase else { return [] }
        var outputs: [Output] = []
        if item == nil {
            if case .itemStatusChanged(.readyToPlay) = event.kind { startItem(player: player, at: now, into: &outputs) }
        } else {
            let clock = groupClock
            if PlayerCoordinationBinding.mayChangeMapping(event) {
                translate(binding.timelineChanged(player: player, clock: clock, localTime: now), at: now, into: &outputs)
            }
            translate(binding.playerEvent(event, position: player.currentPosition, clock: clock), at: now, into: &outputs)
        }
        settle(player: player, at: now, into: &outputs)
        return outputs
    }

    /// A coordination message from another participant. Before the participant has joined the
    /// group (its clock is not known yet), the message is kept, and the coordinator gets it when it
    /// joins, before the item starts: a joiner then adopts the group's state (a server's snapshot
    /// comes with its welcome) instead of proposing its own.
    public mutating func receive(_ message: CoordinationMessage, from sender: CoordinatedPlaybackParticipant.ID, at now: Duration) -> [Output] {
        var outputs: [Output] = []
        if isJoined {
            translate(binding.receive(message, from: sender, clock: groupClock, localTime: now), at: now, into: &outputs)
        } else {
            keepEarly(.message(message, from: sender))
        }
        settle(at: now, into: &outputs)
        return outputs
    }

    /// Another participant left the group: no wait outlives it. Before joining, the departure is
    /// kept in order with the messages.
    public mutating func participantLeft(_ participant: CoordinatedPlaybackParticipant.ID, at now: Duration) -> [Output] {
        guard isJoined else {
            keepEarly(.departure(participant))
            return []
        }
        var outputs: [Output] = []
        translate(binding.participantLeft(participant, clock: groupClock, localTime: now), at: now, into: &outputs)
        settle(at: now, into: &outputs)
        return outputs
    }

    /// Local time reached ``nextDeadline`` (or passed it): a probe, the coordinator's deadline and
    /// an observation of `player` (its state now), whichever are due.
    public mutating func timerFired(player: PlaybackMachine, at now: Duration) -> [Output] {
        var outputs: [Output] = []
        settle(player: player, at: now, into: &outputs)
        return outputs
    }

    /// Begins a suspension of the app's (an audio interruption, a scrubbing UI, a custom reason).
    /// Before the group clock is synchronised, the begin time is read on the host clock.
    public mutating func beginSuspension(for reason: CoordinatedPlaybackSuspension.Reason, at now: Duration) -> (CoordinatedPlaybackSuspension, [Output]) {
        var outputs: [Output] = []
        let (suspension, begun) = binding.beginSuspension(for: reason, clock: groupClock, localTime: now)
        translate(begun, at: now, into: &outputs)
        settle(at: now, into: &outputs)
        return (suspension, outputs)
    }

    /// Ends a suspension; with `position`, the group moves there if it was the last.
    public mutating func endSuspension(_ suspension: CoordinatedPlaybackSuspension, proposing position: IntegratedTimeline.Position?, at now: Duration) -> [Output] {
        var outputs: [Output] = []
        translate(binding.end(suspension, proposingNewTime: position, clock: groupClock, localTime: now), at: now, into: &outputs)
        settle(at: now, into: &outputs)
        return outputs
    }

    /// Calls the coordinator at the current group time, for the calls the driver has no input of
    /// its own for (a new waiting policy in force at once).
    public mutating func perform(
        at now: Duration,
        _ body: (inout PlaybackCoordinatorStateMachine, Duration) -> [PlaybackCoordinatorStateMachine.Action]
    ) -> [Output] {
        var outputs: [Output] = []
        translate(binding.perform(clock: groupClock, localTime: now, body), at: now, into: &outputs)
        settle(at: now, into: &outputs)
        return outputs
    }

    /// Direct access to the coordinator's settings (waiting policy, participant limits).
    public mutating func configure(_ body: (inout PlaybackCoordinatorStateMachine) -> Void) {
        binding.configure(body)
    }

    // MARK: Steps

    private mutating func join(player: PlaybackMachine, at now: Duration, into outputs: inout [Output]) {
        phase = .joined(nil)
        let clock = groupClock
        outputs.append(.event(.clockSynchronized(clock)))
        translate(binding.connect(clock: clock, localTime: now), at: now, into: &outputs)
        let kept = early
        early = []
        for input in kept {
            switch input {
            case .message(let message, let sender):
                translate(binding.receive(message, from: sender, clock: clock, localTime: now), at: now, into: &outputs)
            case .departure(let participant):
                translate(binding.participantLeft(participant, clock: clock, localTime: now), at: now, into: &outputs)
            }
        }
        startItem(player: player, at: now, into: &outputs)
    }

    private mutating func keepEarly(_ input: EarlyInput) {
        early.append(input)
        if early.count > Self.maximumEarlyInputs { early.removeFirst(early.count - Self.maximumEarlyInputs) }
    }

    private mutating func startItem(player: PlaybackMachine, at now: Duration, into outputs: inout [Output]) {
        guard let item = player.currentItem, player.itemStatus == .readyToPlay else { return }
        let identifier = identify(item)
        phase = .joined(Item(nextObservation: now + configuration.observationInterval))
        outputs.append(.event(.itemCoordinated(identifier)))
        translate(binding.startItem(identifier, player: player, clock: groupClock, localTime: now), at: now, into: &outputs)
    }

    /// Settles after an input that did not involve the player: a probe if due, the coordinator's
    /// deadline if it passed, and the next deadline.
    private mutating func settle(at now: Duration, into outputs: inout [Output]) {
        guard var item = beginSettling(at: now, into: &outputs) else { return }
        finishSettling(&item, at: now)
    }

    /// Does whatever is due now (a probe, the coordinator's deadline, and, when the player was not
    /// commanded in this input, its getting to a stitched ad's start or end and an observation of
    /// it) and works out the next deadline.
    private mutating func settle(player: PlaybackMachine, at now: Duration, into outputs: inout [Output]) {
        // `player` is read where it is, never wrapped in an optional or copied: the machine is
        // large, and this runs after every input of every participant.
        guard var item = beginSettling(at: now, into: &outputs) else { return }
        let clock = groupClock
        var hasCommanded = outputs.contains { if case .player = $0 { true } else { false } }
        if let boundary = item.stitchedAdBoundary, boundary.localTime <= now, !hasCommanded {
            // The player entered or left a stitched ad, which it reports no event for: its
            // suspension begins or ends now, as an interstitial's event makes it, not at the next
            // observation (up to an observation interval late: the others, held at the break's
            // start for the reports of its ads, were let go and put back).
            item.stitchedAdBoundary = nil
            item.handledBoundary = boundary.itemTime
            if !player.hasReachedEnd {
                let crossed = binding.stitchedAdBoundaryCrossed(at: player.position(atHost: now), clock: clock, localTime: now)
                translate(crossed, at: now, into: &outputs)
                hasCommanded = outputs.contains { if case .player = $0 { true } else { false } }
            }
        }
        if item.nextObservation <= now, !hasCommanded {
            let next = item.nextObservation + configuration.observationInterval
            item.nextObservation = next > now ? next : now + configuration.observationInterval
            let observed = binding.observe(
                position: player.position(atHost: now), status: player.timeControlStatus, isInBreak: player.currentEvent != nil,
                hasReachedEnd: player.hasReachedEnd, clock: clock, localTime: now)
            translate(observed, at: now, into: &outputs)
            hasCommanded = outputs.contains { if case .player = $0 { true } else { false } }
        }
        if !hasCommanded {
            // Read again after every input that may have changed how the player plays; a player
            // commanded now is read once the commands are carried out (their events follow). Once
            // it has moved off the boundary it got to, a seek back onto it counts again.
            if binding.hasStitchedAds {
                if let handled = item.handledBoundary, player.position(atHost: now) != .primary(handled) { item.handledBoundary = nil }
                item.stitchedAdBoundary = binding.nextStitchedAdBoundary(player: player, at: now, handled: item.handledBoundary)
            } else {
                item.stitchedAdBoundary = nil
            }
        }
        finishSettling(&item, at: now)
    }

    /// What settling does first, with or without the player: a probe if due, then (once an item
    /// is coordinated) the coordinator's deadline if it passed; the item to settle, if any.
    private mutating func beginSettling(at now: Duration, into outputs: inout [Output]) -> Item? {
        if isProbing, let probe = estimator.makeProbeIfDue(at: now) { outputs.append(.probe(probe)) }
        guard case .joined(let item?) = phase else { return nil }
        if let deadline = item.coordinatorDeadline, deadline.local <= now {
            translate(binding.advance(toGroupDeadline: deadline.group, clock: groupClock, localTime: now), at: now, into: &outputs)
        }
        return item
    }

    /// What settling does last: the coordinator's next deadline, and the item kept.
    private mutating func finishSettling(_ item: inout Item, at now: Duration) {
        let clock = groupClock
        item.coordinatorDeadline = binding.nextGroupDeadline(clock: clock, localTime: now).map {
            Deadline(local: clock.localTime(atGroupTime: $0), group: $0)
        }
        phase = .joined(item)
    }

    /// The binding's outputs as the driver's: commands only while an item is coordinated (between
    /// items, the old item's commands would move the new one), waits for others reported.
    private mutating func translate(_ translated: [PlayerCoordinationBinding.Output], at now: Duration, into outputs: inout [Output]) {
        for output in translated {
            switch output {
            case .player(let command, let originator):
                guard hasStartedItem else { continue }
                outputs.append(.player(command, originator: originator))
            case .send(let message, let recipients):
                outputs.append(.send(message, to: recipients))
            case .event(let event):
                outputs.append(.event(.coordinator(event)))
                if case .groupStatusChanged(let status) = event { reportWait(status, at: now, into: &outputs) }
            }
        }
    }

    /// Reports the start and the end of a wait for others (not for the local participant).
    private mutating func reportWait(_ status: PlaybackCoordinatorStateMachine.GroupPlaybackStatus, at now: Duration, into outputs: inout [Output]) {
        let participant = configuration.participant
        let waitsForOthers = status.status == .waiting && !status.blockers.isEmpty && !status.blockers.contains { $0.participant == participant }
        if waitsForOthers {
            let clock = groupClock
            let ends = status.blockers.map(\.expectedEnd)
            // An end already passed is an estimate that did not know the break's length: unknown.
            let end = ends.contains(nil) ? nil : ends.compactMap { $0 }.max().map { clock.localTime(atGroupTime: $0) }.flatMap { $0 > now ? $0 : nil }
            isWaitingForOthers = true
            outputs.append(.event(.groupWait(GroupWait(blockers: status.blockers, expectedEnd: end, expectedDuration: end.map { max(.zero, $0 - now) }))))
        } else if isWaitingForOthers {
            isWaitingForOthers = false
            outputs.append(.event(.groupWait(nil)))
        }
    }
}
