import GroupWire
import MediaTime

/// Coordinates a player that is not Interlude's (Apple's `AVDelegatingPlaybackCoordinator`,
/// research/coordination.md §1.6), as a pure state machine: the app reports its player's position
/// and rate, calls ``coordinateRateChange(to:playImmediately:clock:atHostTime:)`` and
/// ``coordinateSeek(to:clock:atHostTime:)`` instead of changing its player, and carries out the
/// ``Command``s that come out: Apple's play, pause, seek and buffering commands, anchored on the
/// host clock through a ``GroupTimeMapping``, and a ``RateAdjustmentCommand`` for drift.
///
///     var coordinator = DelegatingPlaybackCoordinator(participant: "alice")
///     outputs = coordinator.connect(clock: estimate, atHostTime: now)
///     outputs += coordinator.transitionToItem(withIdentifier: "movie", clock: estimate, atHostTime: now)
///     outputs = coordinator.coordinateRateChange(to: 1, clock: estimate, atHostTime: now)   // the user pressed play
///     // every 250 ms: coordinator.reportPlayback(itemTime: player.time, rate: player.rate, clock: estimate, atHostTime: now)
///
/// The shell (the app) sends ``Output/send(_:to:)`` messages to the group, feeds received ones to
/// ``receive(_:from:clock:atHostTime:)`` and calls ``advance(clock:atHostTime:)`` at
/// ``nextDeadline(clock:atHostTime:)``, as ``PlayerPlaybackCoordinator`` does for an Interlude
/// player. Commands need no completion handler: an app that cannot follow one begins a suspension
/// (`stallRecovery` when a buffering command's due date passes before it is ready).
///
/// **Mapping** of the coordinator's ``PlaybackControlCommand``s (`p` a position, `h` the anchor's
/// host time, "at p" meaning the reported player will be within ``Configuration/seekTolerance``
/// of `p` then):
///
/// | control | commands |
/// |---|---|
/// | `play(rate, p, g)`, `h` ahead, player playing and at `p` by `h` | play(rate, p, h) |
/// | `play(rate, p, g)`, `h` ahead, player standing at `p` | buffering(rate, due h), play(rate, p, h) |
/// | `play(rate, p, g)`, `h` ahead, player elsewhere (or unknown) | seek(p, buffer, rate, due h), play(rate, p, h) |
/// | `play(rate, p, g)`, `h` now or past | play(rate, p, h) |
/// | `pause(nil)` | pause(no buffering) |
/// | `pause(p)` | pause(no buffering), then seek(p, no buffering) unless at p |
/// | `waitForCoordinatedPlayback(p, rate)` | pause(buffer for rate), then seek(p, buffer for rate) unless at p |
/// | `adjustRate(m)` | adjustRate(group rate × m × clock pace, m) |
/// | `setLocalRate(0)` | pause(no buffering) |
/// | `setLocalRate(r)` | play(r, the player's time now, now) |
///
/// A play is followed by an adjustRate when the host clock's pace against the group clock
/// (``GroupTimeMapping/rateRatio``) is not 1, and one comes whenever that pace's estimate moves.
///
/// Positions are item times: the app's interstitials are time ranges of its item (Apple's
/// delegate `interstitialTimeRanges`), like stitched ads; HLS interstitials played from separate
/// assets are the Interlude player's business (``PlayerPlaybackCoordinator``).
public struct DelegatingPlaybackCoordinator: Sendable {
    /// Settings.
    public struct Configuration: Sendable, Hashable {
        /// The coordinator's settings beyond Apple's API.
        public var coordinator = PlaybackCoordinatorStateMachine.Configuration()
        /// How far a reported player may be from a commanded time without a seek command being
        /// sent (20 ms: below what people notice, and below the drift tolerance).
        public var seekTolerance = MediaTime(value: 20, timescale: 1000)

        /// The defaults.
        public init() {}
    }

    /// What the coordinator asks of the app.
    public enum Output: Sendable, Hashable {
        /// Carry out this command on the player.
        case command(Command)
        /// Send this to the group.
        case send(CoordinationMessage, to: PlaybackCoordinatorStateMachine.Recipients)
        /// The coordinator reports this (suspension reasons, other participants, group status).
        case event(PlaybackCoordinatorStateMachine.Event)
    }

    /// What the app last said about its player (or what the coordinator last told it to do).
    public struct PlayerReport: Sendable, Hashable {
        /// The item time at ``hostTime``.
        public var itemTime: MediaTime
        /// The rate it moves at (0: still).
        public var rate: Double
        /// The host time of the report.
        public var hostTime: Duration

        /// A report.
        public init(itemTime: MediaTime, rate: Double, hostTime: Duration) {
            self.itemTime = itemTime
            self.rate = rate
            self.hostTime = hostTime
        }

        /// Where the player will be at `time` if it keeps its rate. A report describes the player
        /// from its host time on (a commanded start in the future stands still until then), so an
        /// earlier time gives ``itemTime``.
        public func itemTime(atHostTime time: Duration) -> MediaTime {
            rate == 0 || time <= hostTime ? itemTime : GroupTimeArithmetic.sum(itemTime, GroupTimeArithmetic.advance(time - hostTime, rate: rate))
        }
    }

    /// The coordinator state machine.
    public private(set) var coordinator: PlaybackCoordinatorStateMachine
    /// The settings.
    public let configuration: Configuration
    /// The player as last reported, or as last commanded.
    public private(set) var player: PlayerReport?
    private var groupRate: Double = 0
    private var multiplier: Double = 1
    private var appliedRatio: Double = 1

    /// A coordinator for the local participant `participant`.
    public init(participant: CoordinatedPlaybackParticipant.ID, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        coordinator = PlaybackCoordinatorStateMachine(localParticipant: participant, configuration: configuration.coordinator)
    }

    // MARK: Apple's API

    /// The item commands are for (the one last given to ``transitionToItem(withIdentifier:interstitialTimeRanges:itemDuration:proposingInitialTime:rate:isReadyToPlay:clock:atHostTime:)``).
    public var currentItemIdentifier: String? { coordinator.currentItemIdentifier }

    /// The other participants.
    public var otherParticipants: [CoordinatedPlaybackParticipant] { coordinator.otherParticipants }

    /// Why this participant does not take part in the group's playback now.
    public var suspensionReasons: [CoordinatedPlaybackSuspension.Reason] { coordinator.suspensionReasons }

    /// Direct access to settings without outputs (participant limits, snapping on pause; a
    /// waiting policy for suspensions begun later).
    public mutating func configure(_ body: (inout PlaybackCoordinatorStateMachine) -> Void) {
        body(&coordinator)
    }

    /// A new waiting policy, applied at once to suspensions in progress.
    public mutating func setSuspensionReasonsThatTriggerWaiting(
        _ reasons: [CoordinatedPlaybackSuspension.Reason], clock: some GroupTimeMapping, atHostTime hostTime: Duration
    ) -> [Output] {
        let groupTime = clock.groupTime(atLocalTime: hostTime)
        return translate(coordinator.setSuspensionReasonsThatTriggerWaiting(reasons, at: groupTime), clock: clock, hostTime: hostTime)
    }

    /// Joins (or rejoins) the group.
    public mutating func connect(clock: some GroupTimeMapping, atHostTime hostTime: Duration) -> [Output] {
        translate(coordinator.connect(at: clock.groupTime(atLocalTime: hostTime)), clock: clock, hostTime: hostTime)
    }

    /// Starts coordinating an item (Apple's `transitionToItem(withIdentifier:proposingInitialTimingBasedOn:)`):
    /// the group's state for it wins if there is one; otherwise `initialTime` at `rate` is
    /// proposed (paused at zero by default, Apple's nil timebase).
    ///
    /// - Parameters:
    ///   - interstitialTimeRanges: the item's own interstitial ranges, sample-accurate (Apple's
    ///     delegate `interstitialTimeRanges`): taken out of the group's timeline, and a
    ///     `playingInterstitial` suspension while the player is inside one.
    ///   - itemDuration: the item's duration, for the content-duration check across participants.
    public mutating func transitionToItem(
        withIdentifier identifier: String?,
        interstitialTimeRanges: [MediaTimeRange] = [],
        itemDuration: MediaTime? = nil,
        proposingInitialTime initialTime: MediaTime = .zero,
        rate: Double = 0,
        isReadyToPlay: Bool = true,
        clock: some GroupTimeMapping,
        atHostTime hostTime: Duration
    ) -> [Output] {
        let mapping = CoordinatedTimeMapping(stitchedAdRanges: interstitialTimeRanges, itemDuration: itemDuration)
        player = PlayerReport(itemTime: initialTime, rate: rate, hostTime: hostTime)
        let actions = coordinator.transitionToItem(
            withIdentifier: identifier, mapping: mapping, proposingInitialTime: .item(initialTime), rate: rate,
            isReadyToPlay: isReadyToPlay, at: clock.groupTime(atLocalTime: hostTime))
        return translate(actions, clock: clock, hostTime: hostTime)
    }

    /// Changes the group's rate (Apple's `coordinateRateChange(to:options:)`); while suspended, only
    /// the local player's. The player is not to change its rate itself: the commands do.
    public mutating func coordinateRateChange(
        to rate: Double, playImmediately: Bool = false, clock: some GroupTimeMapping, atHostTime hostTime: Duration
    ) -> [Output] {
        let groupTime = clock.groupTime(atLocalTime: hostTime)
        return translate(coordinator.coordinateRateChange(to: rate, playImmediately: playImmediately, at: groupTime), clock: clock, hostTime: hostTime)
    }

    /// Moves the group to `itemTime` of the local item, keeping its rate (Apple's
    /// `coordinateSeek(to:options:)`). A time inside one of the local interstitial ranges moves the
    /// group to the range's start.
    public mutating func coordinateSeek(to itemTime: MediaTime, clock: some GroupTimeMapping, atHostTime hostTime: Duration) -> [Output] {
        let groupTime = clock.groupTime(atLocalTime: hostTime)
        return translate(coordinator.coordinateSeek(to: .item(itemTime), at: groupTime), clock: clock, hostTime: hostTime)
    }

    /// Begins a suspension (Apple's `beginSuspension(for:)`).
    public mutating func beginSuspension(
        for reason: CoordinatedPlaybackSuspension.Reason, clock: some GroupTimeMapping, atHostTime hostTime: Duration
    ) -> (CoordinatedPlaybackSuspension, [Output]) {
        let (suspension, actions) = coordinator.beginSuspension(for: reason, at: clock.groupTime(atLocalTime: hostTime))
        return (suspension, translate(actions, clock: clock, hostTime: hostTime))
    }

    /// Ends a suspension: if it was the last, the player is commanded to the group's time
    /// (Apple's `end()`), or with `proposingNewTime` the group moves to that item time
    /// (`end(proposingNewTime:)`).
    public mutating func end(
        _ suspension: CoordinatedPlaybackSuspension, proposingNewTime itemTime: MediaTime? = nil,
        clock: some GroupTimeMapping, atHostTime hostTime: Duration
    ) -> [Output] {
        let groupTime = clock.groupTime(atLocalTime: hostTime)
        let actions = itemTime.map { coordinator.end(suspension, proposingNewTime: .item($0), at: groupTime) }
            ?? coordinator.end(suspension, at: groupTime)
        return translate(actions, clock: clock, hostTime: hostTime)
    }

    /// The item time the coordinator expects the player at, at `hostTime` (Apple's
    /// `expectedItemTime(atHostTime:)`); `nil` before the group's state is known.
    public func expectedItemTime(atHostTime hostTime: Duration, clock: some GroupTimeMapping) -> MediaTime? {
        guard case .item(let time)? = coordinator.expectedItemTime(atGroupTime: clock.groupTime(atLocalTime: hostTime)) else { return nil }
        return time
    }

    // MARK: The app's player and the group

    /// The player is at `itemTime`, moving at `rate`, at `hostTime` (report it every 250 ms or so
    /// while playing, after every change, and at each interstitial range's start and end, with a
    /// boundary time observer): drift is measured and corrected, and entering or leaving an
    /// interstitial range suspends or resumes. A range entered between reports is noticed only at
    /// the next: under a waiting policy, the others may go on past its start and be put back.
    public mutating func reportPlayback(itemTime: MediaTime, rate: Double, clock: some GroupTimeMapping, atHostTime hostTime: Duration) -> [Output] {
        player = PlayerReport(itemTime: itemTime, rate: rate, hostTime: hostTime)
        let groupTime = clock.groupTime(atLocalTime: hostTime)
        var outputs = translate(coordinator.observeLocalPlayback(.item(itemTime), at: groupTime), clock: clock, hostTime: hostTime)
        if outputs.isEmpty, groupRate != 0, rate != 0, !coordinator.isSuspended, abs(clock.rateRatio - appliedRatio) > 2e-6,
            let item = coordinator.currentItemIdentifier
        {
            appliedRatio = clock.rateRatio
            outputs.append(.command(.adjustRate(RateAdjustmentCommand(
                originator: nil, expectedCurrentItemIdentifier: item, rate: groupRate * multiplier * appliedRatio, multiplier: multiplier))))
        }
        return outputs
    }

    /// Whether the player can play the item (a participant that is not ready holds a start).
    public mutating func setReadyToPlay(_ ready: Bool, clock: some GroupTimeMapping, atHostTime hostTime: Duration) -> [Output] {
        translate(coordinator.setReadyToPlay(ready, at: clock.groupTime(atLocalTime: hostTime)), clock: clock, hostTime: hostTime)
    }

    /// A message from another participant.
    public mutating func receive(
        _ message: CoordinationMessage, from sender: CoordinatedPlaybackParticipant.ID,
        clock: some GroupTimeMapping, atHostTime hostTime: Duration
    ) -> [Output] {
        translate(coordinator.receive(message, from: sender, at: clock.groupTime(atLocalTime: hostTime)), clock: clock, hostTime: hostTime)
    }

    /// Another participant left: no wait outlives it.
    public mutating func participantLeft(
        _ participant: CoordinatedPlaybackParticipant.ID, clock: some GroupTimeMapping, atHostTime hostTime: Duration
    ) -> [Output] {
        translate(coordinator.participantLeft(participant, at: clock.groupTime(atLocalTime: hostTime)), clock: clock, hostTime: hostTime)
    }

    /// Time passed: scheduled starts, holds and resumptions take effect.
    public mutating func advance(clock: some GroupTimeMapping, atHostTime hostTime: Duration) -> [Output] {
        translate(coordinator.advance(to: clock.groupTime(atLocalTime: hostTime)), clock: clock, hostTime: hostTime)
    }

    /// When ``advance(clock:atHostTime:)`` is next needed, on the host clock.
    public func nextDeadline(clock: some GroupTimeMapping, atHostTime hostTime: Duration) -> Duration? {
        coordinator.nextDeadline(after: clock.groupTime(atLocalTime: hostTime)).map { clock.localTime(atGroupTime: $0) }
    }

    // MARK: Commands

    private mutating func translate(_ actions: [PlaybackCoordinatorStateMachine.Action], clock: some GroupTimeMapping, hostTime: Duration) -> [Output] {
        var outputs: [Output] = []
        for action in actions {
            switch action {
            case .send(let message, let recipients):
                outputs.append(.send(message, to: recipients))
            case .event(let event):
                outputs.append(.event(event))
            case .control(let control):
                guard control.itemIdentifier == coordinator.currentItemIdentifier else { continue }
                let commands = Self.commands(
                    for: control, groupRate: groupRate, player: player, clock: clock, hostTime: hostTime,
                    seekTolerance: configuration.seekTolerance)
                outputs += commands.map(Output.command)
                follow(control.command, commands: commands, clock: clock, hostTime: hostTime)
            }
        }
        return outputs
    }

    /// Keeps what the player was told as its state until the app reports again.
    private mutating func follow(_ control: PlaybackControlCommand, commands: [Command], clock: some GroupTimeMapping, hostTime: Duration) {
        switch control {
        case .play(let rate, _, _):
            groupRate = rate
            multiplier = 1
            appliedRatio = clock.rateRatio
        case .pause:
            groupRate = 0
        case .adjustRate(let multiplier):
            self.multiplier = multiplier
            appliedRatio = clock.rateRatio
        case .waitForCoordinatedPlayback, .setLocalRate:
            break
        }
        for command in commands {
            let now = player?.itemTime(atHostTime: hostTime) ?? .zero
            switch command {
            case .play(let play):
                player = PlayerReport(itemTime: play.itemTime, rate: play.rate, hostTime: play.hostClockTime)
            case .pause:
                player = PlayerReport(itemTime: now, rate: 0, hostTime: hostTime)
            case .seek(let seek):
                player = PlayerReport(itemTime: seek.itemTime, rate: 0, hostTime: hostTime)
            case .adjustRate(let adjustment):
                player = PlayerReport(itemTime: now, rate: adjustment.rate, hostTime: hostTime)
            case .buffering:
                break
            }
        }
    }

    /// The commands for one of the coordinator's controls, given what the player does (the table
    /// in the type's documentation). Pure.
    ///
    /// - Parameters:
    ///   - groupRate: the group's rate, which a drift correction multiplies.
    ///   - player: the player's last known state; `nil` counts as being elsewhere.
    ///   - hostTime: now, on the host clock.
    public static func commands(
        for control: PlaybackControl,
        groupRate: Double,
        player: PlayerReport?,
        clock: some GroupTimeMapping,
        hostTime: Duration,
        seekTolerance: MediaTime = Configuration().seekTolerance
    ) -> [Command] {
        let originator = control.originator
        let item = control.itemIdentifier
        let isMoving = (player?.rate ?? 0) != 0
        func isNear(_ time: MediaTime, atHostTime when: Duration) -> Bool {
            guard let player else { return false }
            return !(seekTolerance < GroupTimeArithmetic.difference(player.itemTime(atHostTime: when), time).magnitude)
        }
        switch control.command {
        case .play(let rate, let position, let groupTime):
            let itemTime = itemTime(of: position)
            let anchor = clock.localTime(atGroupTime: groupTime)
            var commands: [Command] = []
            if hostTime < anchor {
                if !isNear(itemTime, atHostTime: anchor) {
                    commands.append(.seek(SeekCommand(
                        originator: originator, expectedCurrentItemIdentifier: item, itemTime: itemTime,
                        shouldBufferInAnticipationOfPlayback: true, anticipatedPlaybackRate: rate, completionDueDate: anchor)))
                } else if !isMoving {
                    commands.append(.buffering(BufferingCommand(
                        originator: originator, expectedCurrentItemIdentifier: item, anticipatedPlaybackRate: rate, completionDueDate: anchor)))
                }
            }
            commands.append(.play(PlayCommand(originator: originator, expectedCurrentItemIdentifier: item, rate: rate, itemTime: itemTime, hostClockTime: anchor)))
            if clock.rateRatio != 1 {
                commands.append(.adjustRate(RateAdjustmentCommand(
                    originator: originator, expectedCurrentItemIdentifier: item, rate: rate * clock.rateRatio, multiplier: 1)))
            }
            return commands
        case .pause(let position):
            var commands: [Command] = [.pause(PauseCommand(
                originator: originator, expectedCurrentItemIdentifier: item, shouldBufferInAnticipationOfPlayback: false, anticipatedPlaybackRate: 0))]
            if let position, !isNear(itemTime(of: position), atHostTime: hostTime) {
                commands.append(.seek(SeekCommand(
                    originator: originator, expectedCurrentItemIdentifier: item, itemTime: itemTime(of: position),
                    shouldBufferInAnticipationOfPlayback: false, anticipatedPlaybackRate: 0, completionDueDate: nil)))
            }
            return commands
        case .waitForCoordinatedPlayback(let position, let rate):
            var commands: [Command] = [.pause(PauseCommand(
                originator: originator, expectedCurrentItemIdentifier: item, shouldBufferInAnticipationOfPlayback: true, anticipatedPlaybackRate: rate))]
            if !isNear(itemTime(of: position), atHostTime: hostTime) {
                commands.append(.seek(SeekCommand(
                    originator: originator, expectedCurrentItemIdentifier: item, itemTime: itemTime(of: position),
                    shouldBufferInAnticipationOfPlayback: true, anticipatedPlaybackRate: rate, completionDueDate: nil)))
            }
            return commands
        case .adjustRate(let multiplier):
            return [.adjustRate(RateAdjustmentCommand(
                originator: originator, expectedCurrentItemIdentifier: item, rate: groupRate * multiplier * clock.rateRatio, multiplier: multiplier))]
        case .setLocalRate(let rate):
            guard rate != 0 else {
                return [.pause(PauseCommand(
                    originator: originator, expectedCurrentItemIdentifier: item, shouldBufferInAnticipationOfPlayback: false, anticipatedPlaybackRate: 0))]
            }
            let itemTime = player?.itemTime(atHostTime: hostTime) ?? .zero
            return [.play(PlayCommand(originator: originator, expectedCurrentItemIdentifier: item, rate: rate, itemTime: itemTime, hostClockTime: hostTime))]
        }
    }

    private static func itemTime(of position: PlaybackPosition) -> MediaTime {
        switch position {
        case .item(let time):
            return time
        case .interstitial:
            // The delegating coordinator's mapping has no interstitial breaks, only item ranges.
            preconditionFailure("a delegating coordinator's positions are item times")
        }
    }
}
