import GroupCoordination
import GroupWire
import HLSInterstitials
import HLSPlaylist
import MediaTime
import PlayerEngine

/// The glue between an Interlude player and a playback coordinator (Apple's
/// `AVPlayerPlaybackCoordinator`, as a pure state machine): the player's events go in, and out
/// come commands for the player, messages for the group and the coordinator's events.
///
/// - The user's rate changes and seeks on the player (originator `.user`) become group commands.
/// - A stall begins a `stallRecovery` suspension that ends when the player plays again (the
///   player then moves to where the group is).
/// - Breaks are the coordinator's business: entering and leaving them (and an asset starting in
///   one) is observed through the player's position, which also drives drift correction; an
///   interstitial's events and a stitched ad's start and end (``nextStitchedAdBoundary(player:at:handled:)``)
///   are reported at the instant the player gets there.
/// - The coordinator's controls become player commands, anchored on the local host clock, with the
///   originator `.coordinator`, so that they are not taken for the user's.
public struct PlayerCoordinationBinding: Sendable {
    /// A command for the player (``Player`` or ``PlaybackMachine`` inputs).
    public enum PlayerCommand: Sendable, Hashable {
        /// Play at `rate` from `position` at local host time `hostTime`.
        case play(rate: Double, position: IntegratedTimeline.Position, hostTime: Duration)
        /// Pause, at `position` when given.
        case pause(at: IntegratedTimeline.Position?)
        /// Hold still at `position`, ready to play at `rate`, waiting for the group.
        case hold(at: IntegratedTimeline.Position, rate: Double)
        /// Change the rate only (a drift correction or a local rate while suspended).
        case setRate(Double)
    }

    /// What the binding asks for.
    public enum Output: Sendable, Hashable {
        /// Apply this to the player; `originator` is the participant whose command it carries out
        /// (`nil`: the coordinator re-aligning the player with the group).
        case player(PlayerCommand, originator: CoordinatedPlaybackParticipant.ID?)
        /// Send this to the group.
        case send(CoordinationMessage, to: PlaybackCoordinatorStateMachine.Recipients)
        /// The coordinator reports this.
        case event(PlaybackCoordinatorStateMachine.Event)
    }

    /// The coordinator.
    public private(set) var coordinator: PlaybackCoordinatorStateMachine
    /// The item being coordinated.
    public private(set) var itemIdentifier: String?
    private var stall: CoordinatedPlaybackSuspension?
    private var groupRate: Double = 0
    private var isHeld = false
    /// The clock's rate ratio and the drift multiplier the player's rate was last set with.
    private var appliedRatio: Double = 1
    /// The latest group deadline handled (so that a deadline is not handed out twice when the
    /// local clock's round trip lands just before it).
    private var advancedTo: Duration = .zero
    private var multiplier: Double = 1
    /// Corrections made (rate adjustments and re-anchoring seeks), for reports.
    public private(set) var corrections = 0
    /// How many times the coordinator has been handed an input or reconfigured: while it stays the
    /// same, so do the coordinator's state and deadlines (a driver need not ask for them again).
    public private(set) var revision: UInt64 = 0

    /// A binding for the local participant `participant`.
    public init(participant: CoordinatedPlaybackParticipant.ID, configuration: PlaybackCoordinatorStateMachine.Configuration = .init()) {
        coordinator = PlaybackCoordinatorStateMachine(localParticipant: participant, configuration: configuration)
    }

    /// Direct access to the coordinator's settings (waiting policy, participant limits).
    public mutating func configure(_ body: (inout PlaybackCoordinatorStateMachine) -> Void) {
        revision += 1
        body(&coordinator)
    }

    /// Calls the coordinator at the current group time and translates what it asks for: for the
    /// coordinator's calls the binding has no method of its own (a new waiting policy in force at
    /// once, a rate change with `playImmediately`).
    public mutating func perform(
        clock: some GroupTimeMapping,
        localTime: Duration,
        _ body: (inout PlaybackCoordinatorStateMachine, Duration) -> [PlaybackCoordinatorStateMachine.Action]
    ) -> [Output] {
        let actions = body(&coordinator, clock.groupTime(atLocalTime: localTime))
        return translate(actions, clock: clock)
    }

    /// The mapping of a player's item: its stitched-ad ranges and interstitial breaks.
    public static func mapping(of player: PlaybackMachine) -> CoordinatedTimeMapping {
        guard let stitched = player.stitchedAds else { return .identity }
        // On the item timeline already, and kept as a live window slides: a range that moved
        // with the window would move every later coordinated time.
        let ranges = stitched.ranges
        // A shared break (content the same for everyone) enters the coordinated timeline once its
        // duration is known: stated (DURATION), or from its asset list; until the list arrives, a
        // planned length would be a guess. Known ahead, the group can seek into it before it loads.
        let breaks = player.interstitialSchedule?.breaks.compactMap { scheduled -> CoordinatedTimeMapping.Break? in
            if !scheduled.event.contentMayVary, scheduled.event.assetListURI != nil, scheduled.assetListState == .pending,
                scheduled.event.duration == nil
            {
                return nil
            }
            return CoordinatedTimeMapping.Break(scheduled)
        } ?? []
        let duration = player.duration.flatMap { $0.isNumeric ? $0 : nil }
        // A live stream's stitched ads take the place of the live content under them (a broadcast
        // ad slot): the player comes out of one at the live content of that moment.
        let placement: CoordinatedTimeMapping.StitchedAdPlacement = duration == nil ? .replacing : .inserted
        return CoordinatedTimeMapping(stitchedAdRanges: ranges, stitchedAdPlacement: placement, itemDuration: duration, breaks: breaks)
    }

    /// Starts coordinating the player's current item (call once it is ready to play).
    public mutating func startItem(_ identifier: String, player: PlaybackMachine, clock: some GroupTimeMapping, localTime: Duration) -> [Output] {
        itemIdentifier = identifier
        let groupTime = clock.groupTime(atLocalTime: localTime)
        let actions = coordinator.transitionToItem(
            withIdentifier: identifier, mapping: Self.mapping(of: player),
            proposingInitialTime: Self.position(player.currentPosition), rate: player.rate,
            isReadyToPlay: player.itemStatus == .readyToPlay, at: groupTime)
        return translate(actions, clock: clock)
    }

    /// Whether `event` may change the item's mapping, so that a driver calls
    /// ``timelineChanged(player:clock:localTime:)`` after it: a change of the integrated timeline's
    /// segments, or an asset list's arrival. The mapping leaves out a shared break until its asset
    /// list arrives, and an arrival that confirms the stated duration (a RANGE break with DURATION)
    /// changes no segment, so no segments-changed event follows it.
    public static func mayChangeMapping(_ event: PlayerEvent) -> Bool {
        switch event.kind {
        case .timelineChanged(let reasons): return reasons.contains(.segmentsChanged)
        case .assetListResponse: return true
        default: return false
        }
    }

    /// The item's timeline changed (a reload, an asset list): the coordinator learns the new
    /// mapping.
    public mutating func timelineChanged(player: PlaybackMachine, clock: some GroupTimeMapping, localTime: Duration) -> [Output] {
        guard itemIdentifier != nil else { return [] }
        let mapping = Self.mapping(of: player)
        guard mapping != coordinator.mapping else { return [] }
        return translate(coordinator.updateMapping(mapping, at: clock.groupTime(atLocalTime: localTime)), clock: clock)
    }

    /// Reacts to a player event: the user's commands go to the group, stalls suspend.
    public mutating func playerEvent(_ event: PlayerEvent, player: PlaybackMachine, clock: some GroupTimeMapping) -> [Output] {
        playerEvent(event, position: player.currentPosition, clock: clock)
    }

    /// ``playerEvent(_:player:clock:)`` with the player's current position given (a driver that
    /// keeps the player elsewhere and avoids copying it). The position is asked for only by the
    /// events that need it (most events do not).
    public mutating func playerEvent(_ event: PlayerEvent, position: @autoclosure () -> IntegratedTimeline.Position, clock: some GroupTimeMapping) -> [Output] {
        let groupTime = clock.groupTime(atLocalTime: event.hostTime)
        var actions: [PlaybackCoordinatorStateMachine.Action] = []
        switch event.kind {
        case .rateChanged(let rate, .user):
            actions = coordinator.coordinateRateChange(to: rate, at: groupTime)
        case .timeJumped(_, .user):
            actions = coordinator.coordinateSeek(to: Self.position(position()), at: groupTime)
        case .stalled:
            if stall == nil {
                let (suspension, begun) = coordinator.beginSuspension(for: .stallRecovery, at: groupTime)
                stall = suspension
                actions = begun
            }
        case .timeControlStatusChanged(.playing):
            if let suspension = stall {
                stall = nil
                actions = coordinator.end(suspension, at: groupTime)
            }
        case .currentEventChanged, .assetStarted:
            // A break whose asset list was on its way when it was entered begins its suspension
            // when its first asset starts.
            actions = coordinator.observeBreakBoundary(Self.position(position()), at: groupTime)
        default:
            return []
        }
        return translate(actions, clock: clock)
    }

    /// Where and when the player next enters or leaves a stitched ad.
    public struct StitchedAdBoundary: Sendable, Hashable {
        /// The ad's start or end, on the item timeline.
        public var itemTime: MediaTime
        /// When the player gets there, on the local host clock.
        public var localTime: Duration
    }

    /// Where and when the player, playing on as it does now, next enters or leaves a stitched ad of
    /// the coordinated item (`nil` when it is not playing primary content towards one). The player
    /// reports no event there (a stitched ad is primary content to it): a driver wakes at that
    /// local time and calls ``stitchedAdBoundaryCrossed(at:clock:localTime:)``. A boundary the
    /// player stands on is next, unless it is `handled` (crossed and reported already).
    ///
    /// - Complexity: O(r) in the number of stitched-ad ranges.
    public func nextStitchedAdBoundary(player: PlaybackMachine, at localTime: Duration, handled: MediaTime?) -> StitchedAdBoundary? {
        guard hasStitchedAds else { return nil }
        let mapping = coordinator.mapping
        guard itemIdentifier != nil, !mapping.stitchedAdRanges.isEmpty, case .primary(let time) = player.position(atHost: localTime),
            var boundary = mapping.stitchedAdBoundary(from: time)
        else { return nil }
        if boundary == time, boundary == handled {
            guard let next = mapping.stitchedAdBoundary(from: time, isStrict: true) else { return nil }
            boundary = next
        }
        guard let reached = player.hostTime(whenPrimaryReaches: boundary) else { return nil }
        return StitchedAdBoundary(itemTime: boundary, localTime: max(reached, localTime))
    }

    /// Whether the coordinated item has stitched ads (whose boundaries a driver must watch for).
    public var hasStitchedAds: Bool { itemIdentifier != nil && !coordinator.mapping.stitchedAdRanges.isEmpty }

    /// The player crossed a stitched ad's start or end (see
    /// ``nextStitchedAdBoundary(player:at:handled:)``) and is at `position`: the ad's
    /// `playingInterstitial` suspension begins or ends there and then, as an interstitial's
    /// `currentEventChanged` makes it, and the position is not taken for drift.
    public mutating func stitchedAdBoundaryCrossed(at position: IntegratedTimeline.Position, clock: some GroupTimeMapping, localTime: Duration) -> [Output] {
        let groupTime = clock.groupTime(atLocalTime: localTime)
        return translate(coordinator.observeBreakBoundary(Self.position(position), at: groupTime), clock: clock)
    }

    /// Reports where the player is now (call periodically, e.g. every 250 ms while playing): drift
    /// is measured and corrected, breaks entered and left are noticed.
    public mutating func observe(player: PlaybackMachine, clock: some GroupTimeMapping, localTime: Duration) -> [Output] {
        observe(player: player, position: player.currentPosition, clock: clock, localTime: localTime)
    }

    /// ``observe(player:clock:localTime:)`` with the position at `localTime` given (a driver that
    /// computes it without handling an input).
    public mutating func observe(player: PlaybackMachine, position: IntegratedTimeline.Position, clock: some GroupTimeMapping, localTime: Duration) -> [Output] {
        observe(position: position, status: player.timeControlStatus, isInBreak: player.currentEvent != nil,
                hasReachedEnd: player.hasReachedEnd, clock: clock, localTime: localTime)
    }

    /// ``observe(player:clock:localTime:)`` from the few facts it needs (a driver that keeps the
    /// player elsewhere and avoids copying it).
    public mutating func observe(
        position: IntegratedTimeline.Position, status: TimeControlStatus, isInBreak: Bool, hasReachedEnd: Bool,
        clock: some GroupTimeMapping, localTime: Duration
    ) -> [Output] {
        // At the end of the item there is nothing left to keep in step; a player waiting for media
        // is not drifting (it starts where its anchor says when media comes).
        guard !hasReachedEnd else { return [] }
        if !isInBreak, case .waitingToPlayAtSpecifiedRate(let reason) = status,
            reason == .evaluatingBufferingRate || reason == .toMinimizeStalls
        {
            return []
        }
        let groupTime = clock.groupTime(atLocalTime: localTime)
        var outputs = translate(coordinator.observeLocalPlayback(Self.position(position), at: groupTime), clock: clock)
        // The clock estimate's drift sharpens over minutes: keep the player's pace in step with it.
        if outputs.isEmpty, groupRate != 0, !isHeld, status == .playing, abs(clock.rateRatio - appliedRatio) > 2e-6 {
            appliedRatio = clock.rateRatio
            outputs.append(.player(.setRate(groupRate * multiplier * appliedRatio), originator: nil))
        }
        return outputs
    }

    /// A message from another participant.
    public mutating func receive(_ message: CoordinationMessage, from sender: CoordinatedPlaybackParticipant.ID, clock: some GroupTimeMapping, localTime: Duration) -> [Output] {
        let groupTime = clock.groupTime(atLocalTime: localTime)
        return translate(coordinator.receive(message, from: sender, at: groupTime), clock: clock)
    }

    /// Group time passed: scheduled starts and releases take effect.
    public mutating func advance(clock: some GroupTimeMapping, localTime: Duration) -> [Output] {
        translate(coordinator.advance(to: clock.groupTime(atLocalTime: localTime)), clock: clock)
    }

    /// Group time reached `deadline` (a deadline from ``nextGroupDeadline(clock:localTime:)``),
    /// whatever the round trip through the local clock made of it.
    public mutating func advance(toGroupDeadline deadline: Duration, clock: some GroupTimeMapping, localTime: Duration) -> [Output] {
        let groupTime = max(deadline, clock.groupTime(atLocalTime: localTime))
        advancedTo = max(advancedTo, groupTime)
        return translate(coordinator.advance(to: groupTime), clock: clock)
    }

    /// When the coordinator next needs advancing, on the group clock (never one already handled).
    public func nextGroupDeadline(clock: some GroupTimeMapping, localTime: Duration) -> Duration? {
        coordinator.nextDeadline(after: max(advancedTo, clock.groupTime(atLocalTime: localTime)))
    }

    /// When the coordinator next needs ``advance(clock:localTime:)``, on the local clock.
    public func nextDeadline(clock: some GroupTimeMapping, localTime: Duration) -> Duration? {
        coordinator.nextDeadline(after: clock.groupTime(atLocalTime: localTime)).map { clock.localTime(atGroupTime: $0) }
    }

    /// Joins (or rejoins after a disconnection) the group.
    public mutating func connect(clock: some GroupTimeMapping, localTime: Duration) -> [Output] {
        translate(coordinator.connect(at: clock.groupTime(atLocalTime: localTime)), clock: clock)
    }

    /// Another participant left the group: no wait outlives it.
    public mutating func participantLeft(_ participant: CoordinatedPlaybackParticipant.ID, clock: some GroupTimeMapping, localTime: Duration) -> [Output] {
        translate(coordinator.participantLeft(participant, at: clock.groupTime(atLocalTime: localTime)), clock: clock)
    }

    /// Begins a suspension of the app's (an audio interruption, a custom reason).
    public mutating func beginSuspension(for reason: CoordinatedPlaybackSuspension.Reason, clock: some GroupTimeMapping, localTime: Duration) -> (CoordinatedPlaybackSuspension, [Output]) {
        let (suspension, actions) = coordinator.beginSuspension(for: reason, at: clock.groupTime(atLocalTime: localTime))
        return (suspension, translate(actions, clock: clock))
    }

    /// Ends a suspension; with `proposingNewTime`, the group moves to the player's position.
    public mutating func end(_ suspension: CoordinatedPlaybackSuspension, proposingNewTime position: IntegratedTimeline.Position? = nil, clock: some GroupTimeMapping, localTime: Duration) -> [Output] {
        let groupTime = clock.groupTime(atLocalTime: localTime)
        if let position {
            return translate(coordinator.end(suspension, proposingNewTime: Self.position(position), at: groupTime), clock: clock)
        }
        return translate(coordinator.end(suspension, at: groupTime), clock: clock)
    }

    // MARK: Translation

    static func position(_ position: IntegratedTimeline.Position) -> PlaybackPosition {
        switch position {
        case .primary(let time): return .item(time)
        case .interstitial(let eventID, let offset): return .interstitial(eventIdentifier: eventID, offset: offset)
        }
    }

    static func position(_ position: PlaybackPosition) -> IntegratedTimeline.Position {
        switch position {
        case .item(let time): return .primary(time)
        case .interstitial(let eventID, let offset): return .interstitial(eventID: eventID, offset: offset)
        }
    }

    private mutating func translate(_ actions: [PlaybackCoordinatorStateMachine.Action], clock: some GroupTimeMapping) -> [Output] {
        // Every call of the coordinator's hands its actions here.
        revision += 1
        var outputs: [Output] = []
        outputs.reserveCapacity(actions.count)
        for action in actions {
            switch action {
            case .send(let message, let recipients):
                outputs.append(.send(message, to: recipients))
            case .event(let event):
                outputs.append(.event(event))
            case .control(let control):
                guard control.itemIdentifier == itemIdentifier else { continue }
                switch control.command {
                case .play(let rate, let position, let groupTime):
                    groupRate = rate
                    isHeld = false
                    multiplier = 1
                    appliedRatio = clock.rateRatio
                    outputs.append(.player(.play(rate: rate * clock.rateRatio, position: Self.position(position), hostTime: clock.localTime(atGroupTime: groupTime)), originator: control.originator))
                case .pause(let position):
                    groupRate = 0
                    isHeld = false
                    outputs.append(.player(.pause(at: position.map { Self.position($0) }), originator: control.originator))
                case .waitForCoordinatedPlayback(let position, let rate):
                    isHeld = true
                    appliedRatio = clock.rateRatio
                    outputs.append(.player(.hold(at: Self.position(position), rate: rate * clock.rateRatio), originator: control.originator))
                case .adjustRate(let multiplier):
                    corrections += multiplier == 1 ? 0 : 1
                    self.multiplier = multiplier
                    appliedRatio = clock.rateRatio
                    outputs.append(.player(.setRate(groupRate * multiplier * clock.rateRatio), originator: nil))
                case .setLocalRate(let rate):
                    outputs.append(.player(.setRate(rate), originator: control.originator))
                }
            }
        }
        return outputs
    }
}

extension PlayerCoordinationBinding.PlayerCommand {
    /// The command as inputs for a ``PlaybackMachine`` (originator `.coordinator`), in the order
    /// every driver gives them. A held player is given its anchored start before the hold is
    /// released, so that it goes from waiting for the group to waiting for the start time without
    /// reporting a moment of playing in between.
    public var machineInputs: [PlaybackMachine.Input] {
        switch self {
        case .play(let rate, let position, let hostTime):
            return [.playAnchored(rate, position: position, hostTime: hostTime, originator: .coordinator), .setCoordinationHold(false)]
        case .pause(let position):
            var inputs: [PlaybackMachine.Input] = [.setCoordinationHold(false), .setRate(0, originator: .coordinator)]
            if let position { inputs.append(.jump(to: position, originator: .coordinator)) }
            return inputs
        case .hold(let position, let rate):
            return [.jump(to: position, originator: .coordinator), .setCoordinationHold(true), .setRate(rate, originator: .coordinator)]
        case .setRate(let rate):
            return [.setRate(rate, originator: .coordinator)]
        }
    }
}
