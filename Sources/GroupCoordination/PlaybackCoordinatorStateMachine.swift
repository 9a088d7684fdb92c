import MediaTime

/// The playback coordinator of one participant, as a state machine: Apple's
/// `AVPlaybackCoordinator` semantics (research/coordination.md §1) extended to participants who see
/// different ads (MISSION S1.1–S1.11, S2.10).
///
/// It takes inputs (the app's transport requests, suspensions, the local player's observations,
/// messages from other participants, the passing of group time) and returns actions (messages to
/// send, commands for the local player, events for UI). It never reads a clock: every input carries
/// the current time on the agreed group clock. A shell performs the actions and calls
/// ``advance(to:)`` at ``nextDeadline(after:)``.
///
/// The group's playback intent is a replicated ``CoordinatedPlaybackState`` per item, ordered by
/// ``CoordinationTimestamp``; each participant's readiness and suspensions travel as
/// ``ParticipantStateUpdate``s; and every participant folds both into the same ``GroupTimeline``,
/// which says where the group is, whether it waits and for whom. All positions the group shares are
/// on the coordinated timeline (``CoordinatedTimeMapping``): each participant's own ads are taken
/// out there and put back when the coordinator commands its player.
public struct PlaybackCoordinatorStateMachine: Sendable {
    /// Settings that are not part of Apple's API.
    public struct Configuration: Sendable, Hashable {
        /// How far ahead a start is scheduled (a play, a seek while playing, a resume after a
        /// wait), so that the message reaches everyone first. The timing layer may raise it to
        /// about twice the largest round trip.
        public var commandLeadTime: Duration = .milliseconds(300)
        /// The longest the group waits at a start for a participant that is not ready (`nil`: as
        /// long as it takes).
        public var readinessWaitLimit: Duration? = .seconds(60)
        /// Under a waiting policy that waits out interstitials, how long the local player holds at a
        /// break where the others' shared ad schedules say they play ads and it has none (S1.11),
        /// before their reports that they are in their ads arrive: it stops exactly where the ads
        /// begin instead of playing on until the reports come and being put back. Past this bound
        /// without a report (nobody plays those ads after all), it goes on with the group.
        public var expectedWaitHoldLimit: Duration = .milliseconds(300)
        /// How much participants' content durations may differ before it is reported (S1.7).
        public var contentDurationTolerance: MediaTime = .zero
        /// Drift-correction thresholds.
        public var driftCorrection = DriftCorrector.Configuration()

        /// The defaults.
        public init() {}
    }

    /// To whom a message goes.
    public enum Recipients: Sendable, Hashable {
        /// Every other participant.
        case all
        /// One participant (a reply to a joiner).
        case participant(CoordinatedPlaybackParticipant.ID)
    }

    /// Something for the shell to do.
    public enum Action: Sendable, Hashable {
        /// Send a message.
        case send(CoordinationMessage, to: Recipients)
        /// Command the local player.
        case control(PlaybackControl)
        /// Tell the app.
        case event(Event)
    }

    /// What the app may show.
    public enum Event: Sendable, Hashable {
        /// The local suspension reasons changed (Apple's `suspensionReasonsDidChangeNotification`).
        case suspensionReasonsChanged([CoordinatedPlaybackSuspension.Reason])
        /// Another participant's state changed (`otherParticipantsDidChangeNotification`).
        case otherParticipantsChanged([CoordinatedPlaybackParticipant])
        /// The group started or stopped waiting, or now waits for someone else.
        case groupStatusChanged(GroupPlaybackStatus)
        /// A participant's content duration differs from the local one (S1.7).
        case contentDurationMismatch(ContentDurationMismatch)
        /// A break the group plays in sync has a different duration, or is missing, on a
        /// participant (S2.10 requires the same content).
        case sharedBreakMismatch(SharedBreakMismatch)
        /// A local rate change or seek was undone because this participant may not command the
        /// group (``mayCommandGroup``).
        case commandNotAllowed
        /// On a live item with stitched ads, a participant's stitched break at the same place
        /// lasts a different time (S1.7: for live, the ad durations should match, or content
        /// shifts between participants).
        case stitchedBreakMismatch(StitchedBreakMismatch)
    }

    /// A stitched break that lasts differently on another participant's live item (S1.7).
    public struct StitchedBreakMismatch: Sendable, Hashable {
        /// The item.
        public var itemIdentifier: String
        /// Where the break is on the coordinated timeline.
        public var coordinatedTime: MediaTime
        /// The other participant.
        public var participant: CoordinatedPlaybackParticipant.ID
        /// The local break's duration.
        public var localDuration: MediaTime
        /// The other participant's.
        public var participantDuration: MediaTime

        /// A mismatch.
        public init(itemIdentifier: String, coordinatedTime: MediaTime, participant: CoordinatedPlaybackParticipant.ID, localDuration: MediaTime, participantDuration: MediaTime) {
            self.itemIdentifier = itemIdentifier
            self.coordinatedTime = coordinatedTime
            self.participant = participant
            self.localDuration = localDuration
            self.participantDuration = participantDuration
        }
    }

    /// The group's status as UI shows it.
    public struct GroupPlaybackStatus: Sendable, Hashable {
        /// Paused, playing or waiting.
        public var status: GroupTimeline.Status
        /// Whom the group waits for, and until when at the latest if known.
        public var blockers: [GroupTimeline.Blocker]

        /// A status.
        public init(status: GroupTimeline.Status, blockers: [GroupTimeline.Blocker]) {
            self.status = status
            self.blockers = blockers
        }
    }

    /// Two participants' content durations differ (S1.7).
    public struct ContentDurationMismatch: Sendable, Hashable {
        /// The item.
        public var itemIdentifier: String
        /// The other participant.
        public var participant: CoordinatedPlaybackParticipant.ID
        /// The local content duration.
        public var localDuration: MediaTime
        /// The other participant's.
        public var participantDuration: MediaTime

        /// A mismatch.
        public init(
            itemIdentifier: String,
            participant: CoordinatedPlaybackParticipant.ID,
            localDuration: MediaTime,
            participantDuration: MediaTime
        ) {
            self.itemIdentifier = itemIdentifier
            self.participant = participant
            self.localDuration = localDuration
            self.participantDuration = participantDuration
        }
    }

    /// A shared break differs between two participants.
    public struct SharedBreakMismatch: Sendable, Hashable {
        /// The item.
        public var itemIdentifier: String
        /// The interstitial event.
        public var eventIdentifier: String
        /// The other participant.
        public var participant: CoordinatedPlaybackParticipant.ID
        /// Its duration here (`nil`: not scheduled here).
        public var localDuration: MediaTime?
        /// Its duration there (`nil`: not scheduled there).
        public var participantDuration: MediaTime?

        /// A mismatch.
        public init(
            itemIdentifier: String,
            eventIdentifier: String,
            participant: CoordinatedPlaybackParticipant.ID,
            localDuration: MediaTime?,
            participantDuration: MediaTime?
        ) {
            self.itemIdentifier = itemIdentifier
            self.eventIdentifier = eventIdentifier
            self.participant = participant
            self.localDuration = localDuration
            self.participantDuration = participantDuration
        }
    }

    /// A wait the local participant can expect at a coordinated time because others play ads
    /// there (S1.11).
    public struct ExpectedWait: Sendable, Hashable {
        /// Where the group will stand.
        public var coordinatedTime: MediaTime
        /// Who plays a break there and for how long.
        public var breaks: [CoordinatedPlaybackParticipant.ID: MediaTime]
        /// How long the local participant will wait there: the longest break less its own.
        public var wait: MediaTime

        /// An expected wait.
        public init(coordinatedTime: MediaTime, breaks: [CoordinatedPlaybackParticipant.ID: MediaTime], wait: MediaTime) {
            self.coordinatedTime = coordinatedTime
            self.breaks = breaks
            self.wait = wait
        }
    }

    private struct LocalInterval: Sendable {
        enum Key: Hashable { case suspension(Int), readiness }
        var key: Key
        var interval: WaitInterval
    }

    private struct ControlKey: Hashable {
        enum Target: Hashable {
            case paused(MediaTime, snaps: Bool)
            case waiting(MediaTime)
            case playing(anchorTime: MediaTime, anchorGroupTime: Duration)
        }

        var timestamp: CoordinationTimestamp
        var target: Target
    }

    // MARK: - Apple's properties

    /// This participant.
    public let localParticipant: CoordinatedPlaybackParticipant.ID
    /// Settings beyond Apple's API.
    public var configuration: Configuration
    /// The reasons the group waits out (the waiting policy, S1.3, S1.4). Applies to suspensions
    /// begun afterwards; ``setSuspensionReasonsThatTriggerWaiting(_:at:)`` also re-evaluates the
    /// ones in progress. Policies are expected to match across the group: a suspension holds the
    /// group when the suspended participant's policy says so, so that everyone agrees.
    public var suspensionReasonsThatTriggerWaiting: [CoordinatedPlaybackSuspension.Reason] = [.userIsChangingCurrentTime]
    /// Whether a remote pause moves the local player to the originator's pause time (default
    /// true); when false the local player pauses where it is.
    public var pauseSnapsToMediaTimeOfOriginator = true
    /// Whether this participant may change the group's rate or position (the group session's
    /// role rules: a viewer may not; Apple's coordinator has no roles). When it may not, a change
    /// made on the local player is not sent: the player is put back where the group is, and
    /// ``Event/commandNotAllowed`` tells the app.
    public var mayCommandGroup = true
    /// The item the coordinator coordinates (set by ``transitionToItem(withIdentifier:mapping:proposingInitialTime:isReadyToPlay:at:)``).
    public private(set) var currentItemIdentifier: String? {
        didSet { remotesOnItem = remotes.values.count { $0.itemIdentifier == currentItemIdentifier } }
    }
    /// The local item's mapping onto the coordinated timeline.
    public private(set) var mapping: CoordinatedTimeMapping = .identity

    private var participantLimits: [CoordinatedPlaybackSuspension.Reason: Int] = [:]
    private var waitLimits: [CoordinatedPlaybackSuspension.Reason: Duration] = [:]
    private var states: [String: CoordinatedPlaybackState] = [:]
    private var counters: [String: UInt64] = [:]
    private var remotes: [CoordinatedPlaybackParticipant.ID: ParticipantStateUpdate] = [:]
    /// `otherParticipants`, kept sorted by identifier and changed one participant at a time as
    /// `remotes` changes: large groups report it at every break of every participant.
    private var others: [CoordinatedPlaybackParticipant] = []
    /// How many other participants are on the current item (kept with `remotes`).
    private var remotesOnItem = 0
    private var schedules: [CoordinatedPlaybackParticipant.ID: AdSchedule] = [:]
    private var suspensions: [CoordinatedPlaybackSuspension] = []
    private var nextSuspensionID = 1
    private var automaticBreak: (suspension: CoordinatedPlaybackSuspension, coordinatedTime: MediaTime)?
    /// A break of others' where the local player arrived before the group did (it runs a little
    /// ahead): it holds there from then on (see ``expectedHold(at:)``).
    private var reachedAhead: (time: MediaTime, timestamp: CoordinationTimestamp)?
    private var exitedBreakTime: MediaTime?
    private var isReady = true
    private var localIntervals: [LocalInterval] = []
    private var sequence: UInt64 = 0
    private var timeline: GroupTimeline?
    private var lastControl: ControlKey?
    private var lastPlay: (position: MediaTime, groupTime: Duration, rate: Double)?
    private var lastStatus: GroupPlaybackStatus?
    private var reportedMismatches: Set<String> = []
    /// The drift corrector for the local player.
    public private(set) var driftCorrector: DriftCorrector

    /// A coordinator for `localParticipant`, not yet on any item.
    public init(localParticipant: CoordinatedPlaybackParticipant.ID, configuration: Configuration = Configuration()) {
        self.localParticipant = localParticipant
        self.configuration = configuration
        self.driftCorrector = DriftCorrector(configuration: configuration.driftCorrection)
    }

    /// The reasons the local participant is suspended for, in the order they began, without
    /// repeats. While not empty the coordinator neither follows the group nor commands it.
    public var suspensionReasons: [CoordinatedPlaybackSuspension.Reason] {
        var seen: [CoordinatedPlaybackSuspension.Reason] = []
        for suspension in suspensions where !seen.contains(suspension.reason) { seen.append(suspension.reason) }
        return seen
    }

    /// Whether the local participant is suspended (``suspensionReasons`` is not empty).
    public var isSuspended: Bool { !suspensions.isEmpty }

    /// The other participants, by identifier.
    public var otherParticipants: [CoordinatedPlaybackParticipant] { others }

    /// Sets (or, with `nil`, removes) a participant's latest state, keeping ``otherParticipants``.
    private mutating func setRemote(_ update: ParticipantStateUpdate?, for participant: CoordinatedPlaybackParticipant.ID) {
        if remotes[participant].map({ $0.itemIdentifier == currentItemIdentifier }) == true { remotesOnItem -= 1 }
        if update.map({ $0.itemIdentifier == currentItemIdentifier }) == true { remotesOnItem += 1 }
        remotes[participant] = update
        var low = 0
        var high = others.count
        while low < high {
            let middle = (low + high) / 2
            if others[middle].id < participant { low = middle + 1 } else { high = middle }
        }
        let isPresent = low < others.count && others[low].id == participant
        switch (update, isPresent) {
        case (let update?, true):
            let description = update.participantDescription
            if others[low] != description { others[low] = description }
        case (let update?, false): others.insert(update.participantDescription, at: low)
        case (nil, true): others.remove(at: low)
        case (nil, false): break
        }
    }

    /// How many participants a group may have before the coordinator stops waiting out suspensions
    /// for `reason` (default: no limit).
    public func participantLimitForWaitingOutSuspensions(withReason reason: CoordinatedPlaybackSuspension.Reason) -> Int {
        participantLimits[reason] ?? .max
    }

    /// Sets ``participantLimitForWaitingOutSuspensions(withReason:)``: in a larger group, a
    /// suspension with that reason no longer holds the others.
    public mutating func setParticipantLimit(
        _ limit: Int,
        forWaitingOutSuspensionsWithReason reason: CoordinatedPlaybackSuspension.Reason
    ) {
        participantLimits[reason] = limit
    }

    /// The longest the group waits out one suspension with `reason` (default: as long as it lasts).
    /// After that, the group resumes and the suspended participant catches up when it ends.
    public func waitLimit(forWaitingOutSuspensionsWithReason reason: CoordinatedPlaybackSuspension.Reason) -> Duration? {
        waitLimits[reason]
    }

    /// Sets ``waitLimit(forWaitingOutSuspensionsWithReason:)`` for suspensions begun afterwards.
    public mutating func setWaitLimit(
        _ limit: Duration?,
        forWaitingOutSuspensionsWithReason reason: CoordinatedPlaybackSuspension.Reason
    ) {
        waitLimits[reason] = limit
    }

    /// Whether the local player is ready to play.
    public var isReadyToPlay: Bool { isReady }

    /// The group's state for the current item, if known.
    public var currentState: CoordinatedPlaybackState? {
        currentItemIdentifier.flatMap { states[$0] }
    }

    /// The group timeline for the current item, if the group's state is known.
    public var groupTimeline: GroupTimeline? { timeline }

    // MARK: - Queries

    /// The coordinated time the group is expected to be at, at a group time.
    public func expectedCoordinatedTime(atGroupTime groupTime: Duration) -> MediaTime? {
        timeline?.time(at: groupTime)
    }

    /// The position on the local item the coordinator expects to be playing at a group time
    /// (Apple's `expectedItemTime(atHostTime:)`, on the group clock): useful to decide whether to
    /// end a suspension such as stall recovery.
    public func expectedItemTime(atGroupTime groupTime: Duration) -> PlaybackPosition? {
        guard let time = timeline?.time(at: groupTime) else { return nil }
        return localPosition(for: time)
    }

    /// What the group does at a group time, and whom it waits for.
    public func groupStatus(at groupTime: Duration) -> GroupPlaybackStatus? {
        guard let timeline else { return nil }
        return GroupPlaybackStatus(status: timeline.status(at: groupTime), blockers: timeline.blockers(at: groupTime))
    }

    /// The next group time at which the coordinator has something to do (a scheduled start, the
    /// group reaching a participant's break, a wait limit, the local player reaching its own
    /// break); call ``advance(to:)`` then.
    public func nextDeadline(after groupTime: Duration) -> Duration? {
        var deadline = timeline?.nextChange(after: groupTime)
        if let hold = expectedHold(at: groupTime) {
            // The group reaching the others' break, or the hold's bound.
            let at = hold.isHolding(at: groupTime) ? hold.release : hold.reach
            if at > groupTime, deadline.map({ at < $0 }) ?? true { deadline = at }
        }
        if suspensions.isEmpty, let lastPlay, lastPlay.rate > 0 {
            // When the player reaches the first local break ahead of where it was last started
            // from (and of now). The ranges and breaks are sorted, and the later a break starts
            // the later it is reached: each list is read up to its first answer. This runs after
            // every input, so nothing is built.
            func firstReached<C: Collection>(_ starts: C) -> Duration? where C.Element == MediaTime {
                for start in starts where lastPlay.position < start {
                    let at = max(lastPlay.groupTime, .zero) + GroupTimeArithmetic.groupDuration(toAdvance: GroupTimeArithmetic.difference(start, lastPlay.position), rate: lastPlay.rate)
                    if at > groupTime { return at }
                }
                return nil
            }
            func consider(_ at: Duration?) {
                if let at, deadline.map({ at < $0 }) ?? true { deadline = at }
            }
            consider(firstReached(mapping.stitchedAdRanges.lazy.map(\.start)))
            consider(firstReached(mapping.breaks.lazy.filter(\.contentMayVary).map(\.itemTime)))
        }
        return deadline
    }

    /// The waits the local participant can expect between two coordinated times because other
    /// participants play longer breaks there, from their shared ad schedules (S1.11). Empty unless
    /// playing an interstitial triggers waiting.
    ///
    /// - Complexity: O(n·e) in participants and schedule entries.
    public func expectedWaits(from start: MediaTime, through end: MediaTime) -> [ExpectedWait] {
        guard suspensionReasonsThatTriggerWaiting.contains(.playingInterstitial), let item = currentItemIdentifier else {
            return []
        }
        var byTime: [MediaTime: [CoordinatedPlaybackParticipant.ID: MediaTime]] = [:]
        for (participant, schedule) in schedules where schedule.itemIdentifier == item && remotes[participant]?.itemIdentifier == item {
            for entry in schedule.entries where !(entry.coordinatedTime < start) && !(end < entry.coordinatedTime) {
                let sum = byTime[entry.coordinatedTime]?[participant] ?? .zero
                // Received durations: a sum that cannot be represented exactly is rounded, not a trap.
                byTime[entry.coordinatedTime, default: [:]][participant] = GroupTimeArithmetic.sum(sum, entry.duration)
            }
        }
        let own = mapping.localBreakSchedule
        return byTime.keys.sorted().compactMap { time in
            let breaks = byTime[time]!
            let longest = breaks.values.max() ?? .zero
            let mine = own.filter { $0.coordinatedTime == time }.reduce(MediaTime.zero) { GroupTimeArithmetic.sum($0, $1.duration) }
            guard mine < longest else { return nil }
            return ExpectedWait(coordinatedTime: time, breaks: breaks, wait: GroupTimeArithmetic.difference(longest, mine))
        }
    }

    /// How much longer the local participant can expect to wait at `groupTime` for the others'
    /// breaks, standing at `coordinatedTime` (S1.11: "how long is left"): the latest expected end
    /// among the playing-interstitial intervals the others reported open (each began with its ad's
    /// remaining length), so that a participant who joins a wait half-way through is told the half
    /// that is left; before any such report, the wait the shared ad schedules give for the break
    /// there (``expectedWaits(from:through:)``). `nil` when neither expects a wait.
    public func expectedWaitLeft(at groupTime: Duration, standingAt coordinatedTime: MediaTime) -> Duration? {
        guard suspensionReasonsThatTriggerWaiting.contains(.playingInterstitial), let item = currentItemIdentifier else { return nil }
        var latestEnd: Duration?
        for update in remotes.values where update.itemIdentifier == item {
            for interval in update.waitIntervals where interval.end == nil {
                guard case .suspension(.playingInterstitial) = interval.cause, let expected = interval.expectedDuration else { continue }
                let end = interval.start + expected
                if latestEnd.map({ $0 < end }) ?? true { latestEnd = end }
            }
        }
        if let latestEnd { return max(.zero, latestEnd - groupTime) }
        let second = MediaTime(seconds: 1)
        let scheduled = expectedWaits(from: GroupTimeArithmetic.difference(coordinatedTime, second),
                                      through: GroupTimeArithmetic.sum(coordinatedTime, second)).first
        return scheduled.map { Duration(rounding: $0.wait) }
    }

    /// The ad schedule other participants shared, by participant.
    public var adSchedules: [CoordinatedPlaybackParticipant.ID: AdSchedule] { schedules }

    // MARK: - Membership

    /// The local participant joined the group or reconnected: it says hello and shares its state;
    /// the others answer with theirs, and the newest playback state wins, so that a joiner adopts
    /// the group's time and a reconnecting participant never resets anyone.
    public mutating func connect(at groupTime: Duration) -> [Action] {
        var actions: [Action] = [.send(.hello(localParticipant), to: .all)]
        actions += publish(at: groupTime)
        if let state = currentState { actions.append(.send(.playbackState(state), to: .all)) }
        if let schedule = localSchedule { actions.append(.send(.adSchedule(schedule), to: .all)) }
        return actions
    }

    /// A participant left (or was lost). If it was holding the group, the group resumes from where
    /// it stands (no wait outlives a departed participant).
    public mutating func participantLeft(_ participant: CoordinatedPlaybackParticipant.ID, at groupTime: Duration) -> [Action] {
        guard var update = remotes[participant] else { return [] }
        var actions: [Action] = []
        if update.itemIdentifier == currentItemIdentifier {
            for index in update.waitIntervals.indices where update.waitIntervals[index].end == nil {
                update.waitIntervals[index].end = groupTime
            }
            setRemote(update, for: participant)
            rebuildTimeline()
            actions += reanchorIfNeeded(removing: participant, at: groupTime)
        }
        setRemote(nil, for: participant)
        schedules[participant] = nil
        rebuildTimeline()
        actions.append(.event(.otherParticipantsChanged(otherParticipants)))
        actions += follow(at: groupTime, originator: nil)
        return actions
    }

    // MARK: - Items

    /// Starts coordinating an item (Apple's `transitionToItem(withIdentifier:proposingInitialTimingBasedOn:)`).
    ///
    /// If the group already has a state for the item, the local player follows it. Otherwise the
    /// coordinator proposes `initialTime` at `rate` (paused at zero by default) as an initial
    /// proposal, which an existing group's state always beats.
    ///
    /// - Parameters:
    ///   - identifier: the item's identity, the same for every participant whatever its URL; `nil`
    ///     stops coordinating.
    ///   - mapping: the local item's ads and breaks.
    ///   - initialTime: the position proposed if the group has no state for the item.
    ///   - isReadyToPlay: whether the local player can play the item already.
    public mutating func transitionToItem(
        withIdentifier identifier: String?,
        mapping: CoordinatedTimeMapping = .identity,
        proposingInitialTime initialTime: PlaybackPosition = .item(.zero),
        rate: Double = 0,
        isReadyToPlay: Bool = true,
        at groupTime: Duration
    ) -> [Action] {
        currentItemIdentifier = identifier
        self.mapping = mapping
        localIntervals.removeAll()
        automaticBreak = nil
        reachedAhead = nil
        exitedBreakTime = nil
        lastControl = nil
        lastPlay = nil
        lastStatus = nil
        isReady = isReadyToPlay
        driftCorrector.reset(at: groupTime)
        if !isReady {
            localIntervals.append(
                LocalInterval(
                    key: .readiness,
                    interval: WaitInterval(cause: .notReady, start: groupTime, waitLimit: configuration.readinessWaitLimit)
                )
            )
        }
        var actions: [Action] = []
        guard let identifier else {
            timeline = nil
            return publish(at: groupTime)
        }
        if states[identifier] == nil {
            let coordinated = mapping.coordinatedTime(for: initialTime)
            let state = CoordinatedPlaybackState(
                itemIdentifier: identifier,
                rate: rate,
                anchorTime: coordinated,
                anchorGroupTime: rate == 0 ? groupTime : groupTime + configuration.commandLeadTime,
                timestamp: CoordinationTimestamp(counter: 0, participant: localParticipant, issuedAt: groupTime)
            )
            states[identifier] = state
            actions.append(.send(.playbackState(state), to: .all))
        }
        actions += publish(at: groupTime)
        if let schedule = localSchedule { actions.append(.send(.adSchedule(schedule), to: .all)) }
        actions += checkMismatches()
        rebuildTimeline()
        actions += follow(at: groupTime, originator: nil)
        return actions
    }

    /// The local item's timeline changed (a live reload, an asset list that arrived, a `CUE=ONCE`
    /// break that will not play again): the coordinator takes the new mapping, keeping its
    /// suspensions, waits and the group's state, and tells the others about its ads.
    public mutating func updateMapping(_ mapping: CoordinatedTimeMapping, at groupTime: Duration) -> [Action] {
        guard mapping != self.mapping else { return [] }
        let before = (self.mapping.contentDuration, self.mapping.sharedBreakDurations, self.mapping.localBreakSchedule)
        self.mapping = mapping
        guard currentItemIdentifier != nil else { return [] }
        // Tell the others only what they see of it: in a large group every message reaches all.
        var actions: [Action] = []
        if before.0 != mapping.contentDuration || before.1 != mapping.sharedBreakDurations { actions += publish(at: groupTime) }
        if before.2 != mapping.localBreakSchedule, let schedule = localSchedule { actions.append(.send(.adSchedule(schedule), to: .all)) }
        actions += checkMismatches()
        rebuildTimeline()
        return actions
    }

    // MARK: - Transport

    /// Changes the group's rate (Apple's `coordinateRateChange(to:options:)`): 0 pauses everyone at
    /// the group's current time; a non-zero rate starts everyone together a lead time ahead, after
    /// waiting out the suspensions the policy names and participants that are not ready, unless
    /// `playImmediately`. While suspended, only the local player changes.
    public mutating func coordinateRateChange(
        to rate: Double,
        playImmediately: Bool = false,
        at groupTime: Duration
    ) -> [Action] {
        guard let item = currentItemIdentifier, let timeline else { return [] }
        guard mayCommandGroup else { return putBack(at: groupTime) }
        guard suspensions.isEmpty else {
            return [.control(PlaybackControl(command: .setLocalRate(rate), originator: nil, itemIdentifier: item))]
        }
        let time = timeline.time(at: groupTime)
        return issue(rate: rate, time: time, playImmediately: playImmediately, at: groupTime)
    }

    /// Moves the whole group to a position of the local item, keeping the group's rate (Apple's
    /// `coordinateSeek(to:options:)`). A position inside a local stitched ad or a break whose
    /// content may vary moves the group to the break's start (S1.5); one inside a break the group
    /// shares moves everyone into it (S2.10).
    public mutating func coordinateSeek(to position: PlaybackPosition, at groupTime: Duration) -> [Action] {
        guard currentItemIdentifier != nil, let state = currentState else { return [] }
        guard mayCommandGroup else { return putBack(at: groupTime) }
        guard suspensions.isEmpty else { return [] }
        exitedBreakTime = nil
        return issue(rate: state.rate, time: mapping.coordinatedTime(for: position), playImmediately: false, at: groupTime)
    }

    /// Undoes a local change this participant may not make: the group's state is applied to the
    /// player again (it is followed anew, not only when it changes).
    private mutating func putBack(at groupTime: Duration) -> [Action] {
        lastControl = nil
        return [.event(.commandNotAllowed)] + follow(at: groupTime, originator: nil)
    }

    private mutating func issue(rate: Double, time: MediaTime, playImmediately: Bool, at groupTime: Duration) -> [Action] {
        guard let item = currentItemIdentifier else { return [] }
        let counter = max(counters[item] ?? 0, states[item]?.timestamp.counter ?? 0) + 1
        counters[item] = counter
        let state = CoordinatedPlaybackState(
            itemIdentifier: item,
            rate: rate,
            anchorTime: time,
            anchorGroupTime: rate == 0 ? groupTime : groupTime + configuration.commandLeadTime,
            timestamp: CoordinationTimestamp(counter: counter, participant: localParticipant, issuedAt: groupTime),
            playsImmediately: playImmediately
        )
        states[item] = state
        pruneIntervals()
        rebuildTimeline()
        driftCorrector.reset(at: groupTime)
        var actions: [Action] = [.send(.playbackState(state), to: .all)]
        actions += follow(at: groupTime, originator: nil)
        return actions
    }

    // MARK: - Suspensions

    /// Begins a suspension (Apple's `beginSuspension(for:)`): the coordinator stops following the
    /// group and stops commanding it until the last suspension ends, and tells the others why. If
    /// the reason triggers waiting (and the group is within the reason's participant limit), the
    /// group holds until it ends.
    public mutating func beginSuspension(
        for reason: CoordinatedPlaybackSuspension.Reason,
        at groupTime: Duration
    ) -> (CoordinatedPlaybackSuspension, [Action]) {
        beginSuspension(for: reason, holdTime: nil, expectedDuration: nil, at: groupTime)
    }

    private mutating func beginSuspension(
        for reason: CoordinatedPlaybackSuspension.Reason,
        holdTime: MediaTime?,
        expectedDuration: Duration?,
        at groupTime: Duration
    ) -> (CoordinatedPlaybackSuspension, [Action]) {
        let before = suspensionReasons
        let suspension = CoordinatedPlaybackSuspension(id: nextSuspensionID, reason: reason, beginGroupTime: groupTime)
        nextSuspensionID += 1
        suspensions.append(suspension)
        lastControl = nil
        lastPlay = nil
        if triggersWaiting(reason) {
            localIntervals.append(
                LocalInterval(
                    key: .suspension(suspension.id),
                    interval: WaitInterval(
                        cause: .suspension(reason),
                        start: groupTime,
                        holdTime: holdTime,
                        waitLimit: waitLimits[reason],
                        expectedDuration: expectedDuration
                    )
                )
            )
        }
        var actions: [Action] = []
        if suspensionReasons != before { actions.append(.event(.suspensionReasonsChanged(suspensionReasons))) }
        actions += publish(at: groupTime)
        rebuildTimeline()
        actions += statusActions(at: groupTime)
        return (suspension, actions)
    }

    /// Ends a suspension (Apple's `end()`): if it was the last, the local player moves to the
    /// group's current time and rate.
    public mutating func end(_ suspension: CoordinatedPlaybackSuspension, at groupTime: Duration) -> [Action] {
        end(suspension, proposing: nil, at: groupTime)
    }

    /// Ends a suspension and, if it was the last, moves the group to `time` without changing its
    /// rate (Apple's `end(proposingNewTime:)`); otherwise the time is ignored.
    public mutating func end(
        _ suspension: CoordinatedPlaybackSuspension,
        proposingNewTime time: PlaybackPosition,
        at groupTime: Duration
    ) -> [Action] {
        end(suspension, proposing: time, at: groupTime)
    }

    private mutating func end(
        _ suspension: CoordinatedPlaybackSuspension,
        proposing time: PlaybackPosition?,
        at groupTime: Duration
    ) -> [Action] {
        guard let index = suspensions.firstIndex(where: { $0.id == suspension.id }) else { return [] }
        let before = suspensionReasons
        suspensions.remove(at: index)
        if automaticBreak?.suspension.id == suspension.id { automaticBreak = nil }
        closeInterval(.suspension(suspension.id), at: groupTime)
        var actions: [Action] = []
        if suspensionReasons != before { actions.append(.event(.suspensionReasonsChanged(suspensionReasons))) }
        actions += publish(at: groupTime)
        rebuildTimeline()
        guard suspensions.isEmpty else { return actions + statusActions(at: groupTime) }
        driftCorrector.reset(at: groupTime)
        if let time, let state = currentState {
            exitedBreakTime = nil
            actions += issue(rate: state.rate, time: mapping.coordinatedTime(for: time), playImmediately: false, at: groupTime)
        } else {
            actions += follow(at: groupTime, originator: nil)
        }
        return actions
    }

    /// Re-evaluates suspensions in progress under a new waiting policy: one whose reason no longer
    /// triggers waiting stops holding the group now (the WWDC22 answer for capping a wait at run
    /// time); one that now triggers waiting starts holding it.
    public mutating func setSuspensionReasonsThatTriggerWaiting(
        _ reasons: [CoordinatedPlaybackSuspension.Reason],
        at groupTime: Duration
    ) -> [Action] {
        suspensionReasonsThatTriggerWaiting = reasons
        var changed = false
        for suspension in suspensions {
            let isHolding = localIntervals.contains { $0.key == .suspension(suspension.id) && $0.interval.end == nil }
            if isHolding, !triggersWaiting(suspension.reason) {
                closeInterval(.suspension(suspension.id), at: groupTime)
                changed = true
            } else if !isHolding, triggersWaiting(suspension.reason) {
                localIntervals.append(
                    LocalInterval(
                        key: .suspension(suspension.id),
                        interval: WaitInterval(
                            cause: .suspension(suspension.reason),
                            start: groupTime,
                            holdTime: automaticBreak?.suspension.id == suspension.id ? automaticBreak?.coordinatedTime : nil,
                            waitLimit: waitLimits[suspension.reason]
                        )
                    )
                )
                changed = true
            }
        }
        guard changed else { return [] }
        let actions = publish(at: groupTime)
        rebuildTimeline()
        return actions + follow(at: groupTime, originator: nil)
    }

    private func groupSize() -> Int { 1 + remotesOnItem }

    private func triggersWaiting(_ reason: CoordinatedPlaybackSuspension.Reason) -> Bool {
        suspensionReasonsThatTriggerWaiting.contains(reason)
            && groupSize() <= participantLimitForWaitingOutSuspensions(withReason: reason)
    }

    private mutating func closeInterval(_ key: LocalInterval.Key, at groupTime: Duration) {
        for index in localIntervals.indices where localIntervals[index].key == key && localIntervals[index].interval.end == nil {
            localIntervals[index].interval.end = groupTime
        }
    }

    // MARK: - The local player

    /// The local player became ready to play, or stopped being ready. A participant that is not
    /// ready holds the group at a start (up to ``Configuration/readinessWaitLimit``), not while the
    /// group plays.
    public mutating func setReadyToPlay(_ ready: Bool, at groupTime: Duration) -> [Action] {
        guard ready != isReady else { return [] }
        isReady = ready
        if ready {
            closeInterval(.readiness, at: groupTime)
        } else {
            localIntervals.append(
                LocalInterval(
                    key: .readiness,
                    interval: WaitInterval(cause: .notReady, start: groupTime, waitLimit: configuration.readinessWaitLimit)
                )
            )
        }
        let actions = publish(at: groupTime)
        rebuildTimeline()
        return actions + follow(at: groupTime, originator: nil)
    }

    /// Where the local player is at a group time. Entering a stitched ad or a break whose content
    /// may vary begins a `playingInterstitial` suspension that holds the group at the break's
    /// start if the policy says so; leaving it ends the suspension (the player rejoins the group).
    /// An interstitial whose assets are not known yet, or that has none, begins nothing: report the
    /// position again when its first asset starts. A player that gets to a break where others
    /// play ads before the group does holds there (see ``Configuration/expectedWaitHoldLimit``).
    /// Otherwise the offset from the group's expected position is measured and corrected.
    public mutating func observeLocalPlayback(_ position: PlaybackPosition, at groupTime: Duration) -> [Action] {
        observeLocalPlayback(position, correctingDrift: true, at: groupTime)
    }

    /// The local player entered or left a break (or primary content) at `position`: local breaks
    /// begin and end their suspensions as in ``observeLocalPlayback(_:at:)``, but the position is
    /// not taken for drift. A boundary is crossed by a seek before the seek itself is reported, so
    /// correcting drift here would put a player that leaves a shared break by the user's seek back
    /// into the break before the seek reaches the group.
    public mutating func observeBreakBoundary(_ position: PlaybackPosition, at groupTime: Duration) -> [Action] {
        observeLocalPlayback(position, correctingDrift: false, at: groupTime)
    }

    private mutating func observeLocalPlayback(_ position: PlaybackPosition, correctingDrift: Bool, at groupTime: Duration) -> [Action] {
        guard let item = currentItemIdentifier, let timeline, let state = currentState else { return [] }
        if let automaticBreak {
            guard mapping.localBreak(at: position) == nil else { return [] }
            exitedBreakTime = automaticBreak.coordinatedTime
            return end(automaticBreak.suspension, at: groupTime)
        }
        // A player held in its break while the group is paused is not playing it: it begins when
        // the group plays (the play command would not reach a suspended participant).
        if let local = mapping.localBreak(at: position), local.coordinatedTime != exitedBreakTime || !isAfterExitedBreak(position),
            timeline.status(at: groupTime) != .paused
        {
            // Apple's playingInterstitial says the participant is presented with an interstitial
            // instead of the main content: not yet while its asset list is on its way (a joiner put
            // at a break), not at all when the list is empty (a premium viewer). Meanwhile it stands
            // at the break's start, which is no drift; it begins the suspension when an asset starts.
            guard local.hasContent else { return [] }
            let rate = max(lastPlay?.rate ?? state.rate, 1)
            let expected = GroupTimeArithmetic.groupDuration(toAdvance: local.remaining, rate: rate)
            let (suspension, actions) = beginSuspension(
                for: .playingInterstitial,
                holdTime: local.coordinatedTime,
                expectedDuration: expected,
                at: groupTime
            )
            automaticBreak = (suspension, local.coordinatedTime)
            return actions
        }
        guard suspensions.isEmpty, timeline.status(at: groupTime) == .playing else { return [] }
        if let hold = expectedHold(at: groupTime) {
            if hold.isHolding(at: groupTime) { return [] }
            let past = GroupTimeArithmetic.difference(mapping.coordinatedTime(for: position), hold.time)
            if !past.isNegative, past <= GroupTimeArithmetic.advance(hold.release - hold.reach, rate: timeline.rate) {
                // Ahead of the group, the player got to the others' break first: it holds there now.
                // (Further past it, the player was moved there, by a seek the group hears of next.)
                reachedAhead = (hold.time, state.timestamp)
                return follow(at: groupTime, originator: nil)
            }
        }
        guard correctingDrift else { return [] }
        let phase = timeline.phase(at: groupTime)
        guard let anchor = phase.anchorGroupTime, groupTime >= anchor else { return [] }
        let difference = GroupTimeArithmetic.difference(mapping.coordinatedTime(for: position), timeline.time(at: groupTime))
        let offset = GroupTimeArithmetic.groupDuration(toAdvance: difference.magnitude, rate: abs(timeline.rate))
        switch driftCorrector.decide(offset: difference.isNegative ? .zero - offset : offset, at: groupTime) {
        case .none:
            return []
        case .adjustRate(let multiplier):
            return [.control(PlaybackControl(command: .adjustRate(multiplier: multiplier), originator: nil, itemIdentifier: item))]
        case .seek:
            lastControl = nil
            return follow(at: groupTime, originator: nil)
        }
    }

    /// A break of others' ahead of the local player, or at which it holds.
    private struct ExpectedHold {
        /// The break's coordinated time.
        var time: MediaTime
        /// When the group reaches it.
        var reach: Duration
        /// When the local player stops holding there without the others' reports (the bound).
        var release: Duration
        /// Whether the local player got there before the group.
        var isReachedAhead: Bool

        func isHolding(at groupTime: Duration) -> Bool { (isReachedAhead || reach <= groupTime) && groupTime < release }
    }

    /// Under a waiting policy that waits out interstitials, the next break in the group's current
    /// run where others' shared ad schedules have ads and the local participant has none (S1.11):
    /// the group will wait there as soon as their reports arrive, so the local player holds there
    /// from the instant the group reaches it (or the player does, running ahead) until then, up to
    /// ``Configuration/expectedWaitHoldLimit``. `nil` while suspended, paused or waiting, and when
    /// the run started at or stops before the break (a resume from it, a known wait).
    ///
    /// - Complexity: O(n·e) in participants and schedule entries.
    private func expectedHold(at groupTime: Duration) -> ExpectedHold? {
        guard suspensions.isEmpty, triggersWaiting(.playingInterstitial), let item = currentItemIdentifier,
            let state = currentState, state.rate > 0, let timeline, timeline.status(at: groupTime) == .playing
        else { return nil }
        let phase = timeline.phase(at: groupTime)
        guard let anchor = phase.anchorGroupTime else { return nil }
        var limit = configuration.expectedWaitHoldLimit
        if let waitLimit = waitLimits[.playingInterstitial] { limit = min(limit, waitLimit) }
        guard limit > .zero else { return nil }
        var best: ExpectedHold?
        for (participant, schedule) in schedules where schedule.itemIdentifier == item && remotes[participant]?.itemIdentifier == item {
            for entry in schedule.entries where entry.duration > .zero && phase.anchorTime < entry.coordinatedTime {
                let time = entry.coordinatedTime
                if let stop = phase.stopTime, !(time < stop) { break }
                if let best, !(time < best.time) { break }
                // The local participant's own break there holds it (or a break still loading).
                guard !hasLocalBreak(at: time) else { continue }
                let distance = GroupTimeArithmetic.difference(time, phase.anchorTime)
                let reach = anchor + GroupTimeArithmetic.groupDuration(toAdvance: distance, rate: timeline.rate)
                let isReachedAhead = reachedAhead.map { $0.time == time && $0.timestamp == state.timestamp } ?? false
                let release = reach + limit
                guard groupTime < release else { continue }
                best = ExpectedHold(time: time, reach: reach, release: release, isReachedAhead: isReachedAhead)
            }
        }
        return best
    }

    /// Whether the local participant has a break at a coordinated time that it plays (or whose
    /// assets are on their way).
    private func hasLocalBreak(at time: MediaTime) -> Bool {
        if mapping.localBreakSchedule.contains(where: { $0.coordinatedTime == time && $0.duration > .zero }) { return true }
        return mapping.breaks.contains { $0.contentMayVary && $0.assets == .pending && mapping.coordinatedTime(for: .item($0.itemTime)) == time }
    }

    private func isAfterExitedBreak(_ position: PlaybackPosition) -> Bool {
        // A position in a break whose start we exited: only a seek back into it replays it.
        guard case .item(let time) = position, let range = mapping.stitchedAdRanges.first(where: { $0.contains(time) }) else {
            return false
        }
        return range.start != time
    }

    /// Group time has reached `groupTime` (the shell calls this at ``nextDeadline(after:)``):
    /// scheduled starts, holds and resumptions take effect on the local player.
    public mutating func advance(to groupTime: Duration) -> [Action] {
        follow(at: groupTime, originator: nil)
    }

    // MARK: - Messages

    /// A message from another participant.
    public mutating func receive(
        _ message: CoordinationMessage,
        from sender: CoordinatedPlaybackParticipant.ID,
        at groupTime: Duration
    ) -> [Action] {
        guard sender != localParticipant else { return [] }
        switch message {
        case .playbackState(let state):
            return receive(state, at: groupTime)
        case .participantState(let update):
            return receive(update, at: groupTime)
        case .adSchedule(let schedule):
            schedules[schedule.participant] = schedule
            return checkStitchedBreaks(against: schedule)
        case .hello(let participant):
            remotes[participant]?.sequence = 0
            var actions = publish(at: groupTime, to: .participant(participant))
            if let state = currentState { actions.append(.send(.playbackState(state), to: .participant(participant))) }
            if let schedule = localSchedule { actions.append(.send(.adSchedule(schedule), to: .participant(participant))) }
            return actions
        }
    }

    private mutating func receive(_ state: CoordinatedPlaybackState, at groupTime: Duration) -> [Action] {
        let item = state.itemIdentifier
        counters[item] = max(counters[item] ?? 0, state.timestamp.counter)
        if let existing = states[item], !(existing.timestamp < state.timestamp) { return [] }
        states[item] = state
        guard item == currentItemIdentifier else { return [] }
        exitedBreakTime = exitedBreakTime.flatMap { $0 == state.anchorTime ? $0 : nil }
        pruneIntervals()
        rebuildTimeline()
        driftCorrector.reset(at: groupTime)
        return follow(at: groupTime, originator: state.originator)
    }

    private mutating func receive(_ update: ParticipantStateUpdate, at groupTime: Duration) -> [Action] {
        if let existing = remotes[update.participant], existing.sequence >= update.sequence { return [] }
        let previous = remotes[update.participant]
        var actions: [Action] = []
        if let previous, previous.itemIdentifier == currentItemIdentifier, update.itemIdentifier != currentItemIdentifier {
            // It left our item: treat it as a departure from this item's group.
            actions += participantLeft(update.participant, at: groupTime).filter {
                if case .event(.otherParticipantsChanged) = $0 { return false }
                return true
            }
        }
        // Large groups: each update costs what it changes, not the size of the group.
        let itemChanged = previous?.itemIdentifier != update.itemIdentifier
        let sizeBefore = itemChanged ? groupSize() : 0
        setRemote(update, for: update.participant)
        if previous?.participantDescription != update.participantDescription {
            actions.append(.event(.otherParticipantsChanged(otherParticipants)))
        }
        actions += checkMismatches(with: [update])
        if itemChanged, groupSize() != sizeBefore { actions += applyParticipantLimits(at: groupTime) }
        if itemChanged || previous?.waitIntervals != update.waitIntervals { rebuildTimeline() }
        actions += follow(at: groupTime, originator: nil)
        return actions
    }

    private mutating func applyParticipantLimits(at groupTime: Duration) -> [Action] {
        var changed = false
        for suspension in suspensions where !triggersWaiting(suspension.reason) {
            if localIntervals.contains(where: { $0.key == .suspension(suspension.id) && $0.interval.end == nil }) {
                closeInterval(.suspension(suspension.id), at: groupTime)
                changed = true
            }
        }
        return changed ? publish(at: groupTime) : []
    }

    /// Replaces the group's state by one anchored where the group stands, when a departing
    /// participant's intervals shape the current timeline, so that everyone forgets them at once.
    private mutating func reanchorIfNeeded(removing participant: CoordinatedPlaybackParticipant.ID, at groupTime: Duration) -> [Action] {
        guard let state = currentState, state.rate != 0, let timeline,
            timeline.phases.contains(where: { $0.blockers.contains { $0.participant == participant } })
        else { return [] }
        // The timeline already has the departed participant's intervals closed now: keep its
        // restart time if the group is about to restart, else where it moves.
        let time = timeline.time(at: groupTime)
        let anchor = timeline.phase(at: groupTime).anchorGroupTime ?? groupTime + configuration.commandLeadTime
        let counter = max(counters[state.itemIdentifier] ?? 0, state.timestamp.counter) + 1
        counters[state.itemIdentifier] = counter
        let resumed = CoordinatedPlaybackState(
            itemIdentifier: state.itemIdentifier,
            rate: state.rate,
            anchorTime: time,
            anchorGroupTime: max(anchor, groupTime),
            timestamp: CoordinationTimestamp(counter: counter, participant: localParticipant, issuedAt: groupTime)
        )
        states[state.itemIdentifier] = resumed
        pruneIntervals()
        return [.send(.playbackState(resumed), to: .all)]
    }

    // MARK: - Mismatches (S1.7, S2.10)

    /// S1.7 for live items: a stitched break the other participant has at the same coordinated
    /// time must last as long as the local one (VOD items compare their content durations instead).
    private mutating func checkStitchedBreaks(against schedule: AdSchedule) -> [Action] {
        guard let item = currentItemIdentifier, schedule.itemIdentifier == item, mapping.itemDuration == nil,
            schedule.participant != localParticipant
        else { return [] }
        var actions: [Action] = []
        let local = mapping.localBreakSchedule.filter { $0.source == .stitched }
        for theirs in schedule.entries where theirs.source == .stitched {
            guard let mine = local.first(where: { $0.coordinatedTime == theirs.coordinatedTime }) else { continue }
            guard GroupTimeArithmetic.difference(mine.duration, theirs.duration).magnitude > configuration.contentDurationTolerance else { continue }
            // Once per participant and item: the same pair of ad decisions differs at every break.
            let key = "stitched|\(item)|\(schedule.participant)"
            guard reportedMismatches.insert(key).inserted else { continue }
            actions.append(.event(.stitchedBreakMismatch(StitchedBreakMismatch(
                itemIdentifier: item, coordinatedTime: theirs.coordinatedTime, participant: schedule.participant,
                localDuration: mine.duration, participantDuration: theirs.duration))))
        }
        return actions
    }

    private mutating func checkMismatches() -> [Action] {
        checkMismatches(with: remotes.values.sorted(by: { $0.participant < $1.participant }))
    }

    /// Compares the local content and shared-break durations with `updates`' (S1.7, S2.10).
    private mutating func checkMismatches(with updates: [ParticipantStateUpdate]) -> [Action] {
        guard let item = currentItemIdentifier else { return [] }
        var actions: [Action] = []
        let localShared = mapping.sharedBreakDurations
        for update in updates where update.itemIdentifier == item {
            if let local = mapping.contentDuration, let theirs = update.contentDuration,
                GroupTimeArithmetic.difference(local, theirs).magnitude > configuration.contentDurationTolerance
            {
                let key = "content|\(item)|\(update.participant)|\(theirs.debugDescription)|\(local.debugDescription)"
                if reportedMismatches.insert(key).inserted {
                    actions.append(
                        .event(
                            .contentDurationMismatch(
                                ContentDurationMismatch(
                                    itemIdentifier: item,
                                    participant: update.participant,
                                    localDuration: local,
                                    participantDuration: theirs
                                )
                            )
                        )
                    )
                }
            }
            // Only breaks both sides know the duration of: one whose asset list is still on its way
            // is not a mismatch yet.
            for identifier in Set(localShared.keys).intersection(update.sharedBreakDurations.keys).sorted() {
                let local = localShared[identifier]
                let theirs = update.sharedBreakDurations[identifier]
                guard local != theirs else { continue }
                let key = "break|\(item)|\(identifier)|\(update.participant)|\(String(describing: local))|\(String(describing: theirs))"
                if reportedMismatches.insert(key).inserted {
                    actions.append(
                        .event(
                            .sharedBreakMismatch(
                                SharedBreakMismatch(
                                    itemIdentifier: item,
                                    eventIdentifier: identifier,
                                    participant: update.participant,
                                    localDuration: local,
                                    participantDuration: theirs
                                )
                            )
                        )
                    )
                }
            }
        }
        return actions
    }

    // MARK: - Internals

    /// The local breaks the others are told about: the latest ``AdSchedule/maximumEntries`` (a
    /// live item keeps every break it has seen, and the oldest are long played).
    private var localSchedule: AdSchedule? {
        guard let item = currentItemIdentifier else { return nil }
        return AdSchedule(participant: localParticipant, itemIdentifier: item, entries: Array(mapping.localBreakSchedule.suffix(AdSchedule.maximumEntries)))
    }

    private var localUpdate: ParticipantStateUpdate {
        ParticipantStateUpdate(
            participant: localParticipant,
            sequence: sequence,
            itemIdentifier: currentItemIdentifier,
            isReadyToPlay: isReady,
            suspensionReasons: suspensionReasons,
            waitIntervals: localIntervals.map(\.interval),
            contentDuration: mapping.contentDuration,
            sharedBreakDurations: mapping.sharedBreakDurations
        )
    }

    private mutating func publish(at groupTime: Duration, to recipients: Recipients = .all) -> [Action] {
        sequence += 1
        pruneIntervals()
        return [.send(.participantState(localUpdate), to: recipients)]
    }

    /// Drops local intervals that ended before the group's current state was issued: no fold
    /// needs them any more.
    private mutating func pruneIntervals() {
        guard let state = currentState else { return }
        localIntervals.removeAll { entry in
            guard let end = entry.interval.effectiveEnd else { return false }
            return end <= state.issuedAt && entry.interval.end != nil
        }
    }

    private mutating func rebuildTimeline() {
        guard let item = currentItemIdentifier, let state = states[item] else {
            timeline = nil
            return
        }
        var intervals = localIntervals.map { (localParticipant, $0.interval) }
        for update in remotes.values where update.itemIdentifier == item {
            intervals += update.waitIntervals.map { (update.participant, $0) }
        }
        timeline = GroupTimeline(state: state, intervals: intervals, resumeLeadTime: configuration.commandLeadTime)
    }

    private func localPosition(for time: MediaTime) -> PlaybackPosition {
        let position = mapping.position(forCoordinatedTime: time, afterLocalBreaks: time == exitedBreakTime)
        // A live stitched ad takes the place of the live content under it: a participant that
        // left its ad as it ended is not put back into it when the group's time there is a hair
        // short of the ad's end (the clocks' error), which would replay a moment of the ad and
        // take coordinated time back to the ad's start.
        if let exitedBreakTime, mapping.stitchedAdPlacement == .replacing, let local = mapping.localBreak(at: position),
            local.coordinatedTime == exitedBreakTime, case .stitched(let range) = local.kind
        {
            return .item(range.end)
        }
        return position
    }

    private func controlKey(at groupTime: Duration) -> ControlKey? {
        guard let state = currentState, let timeline else { return nil }
        if state.rate == 0 {
            let snaps = pauseSnapsToMediaTimeOfOriginator || state.originator == localParticipant
            return ControlKey(timestamp: state.timestamp, target: .paused(state.anchorTime, snaps: snaps))
        }
        let phase = timeline.phase(at: groupTime)
        if timeline.status(at: groupTime) == .waiting {
            return ControlKey(timestamp: state.timestamp, target: .waiting(timeline.time(at: groupTime)))
        }
        if let hold = expectedHold(at: groupTime), hold.isHolding(at: groupTime) {
            // The same key as the wait the others' reports will bring: no second command then.
            return ControlKey(timestamp: state.timestamp, target: .waiting(hold.time))
        }
        return ControlKey(
            timestamp: state.timestamp,
            target: .playing(anchorTime: phase.anchorTime, anchorGroupTime: phase.anchorGroupTime ?? groupTime)
        )
    }

    /// Commands the local player to follow the group when what the group does has changed.
    private mutating func follow(at groupTime: Duration, originator: CoordinatedPlaybackParticipant.ID?) -> [Action] {
        var actions: [Action] = []
        if suspensions.isEmpty, let item = currentItemIdentifier, let key = controlKey(at: groupTime), key != lastControl,
            let timeline
        {
            let remoteOriginator = key.timestamp.participant == localParticipant ? nil : originator
            lastControl = key
            let command: PlaybackControlCommand
            switch key.target {
            case .paused(let time, let snaps):
                command = .pause(position: snaps ? localPosition(for: time) : nil)
                lastPlay = nil
            case .waiting(let time):
                command = .waitForCoordinatedPlayback(position: localPosition(for: time), rate: timeline.rate)
                lastPlay = nil
            case .playing(let anchorTime, let anchorGroupTime):
                let at = max(anchorGroupTime, groupTime)
                let time = at == anchorGroupTime ? anchorTime : timeline.time(at: at)
                let position = localPosition(for: time)
                command = .play(rate: timeline.rate, position: position, groupTime: at)
                if case .item(let itemTime) = position {
                    lastPlay = (itemTime, at, timeline.rate)
                } else {
                    lastPlay = nil
                }
            }
            driftCorrector.reset(at: groupTime)
            actions.append(.control(PlaybackControl(command: command, originator: remoteOriginator, itemIdentifier: item)))
            if case .play = command, driftCorrector.multiplier != 1 {
                // A play resets the player's multiplier; the learned trim still applies.
                let trim = PlaybackControlCommand.adjustRate(multiplier: driftCorrector.multiplier)
                actions.append(.control(PlaybackControl(command: trim, originator: nil, itemIdentifier: item)))
            }
        }
        actions += statusActions(at: groupTime)
        return actions
    }

    private mutating func statusActions(at groupTime: Duration) -> [Action] {
        guard let status = groupStatus(at: groupTime), status != lastStatus else { return [] }
        lastStatus = status
        return [.event(.groupStatusChanged(status))]
    }
}
