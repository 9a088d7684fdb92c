import MediaTime

/// The group's position on the coordinated timeline as a function of group time: the winning
/// ``CoordinatedPlaybackState`` with the participants' ``WaitInterval``s folded in.
///
/// Every participant folds the same state and intervals into the same timeline, whatever order the
/// messages arrived in, so the group agrees on where it stands, when it waits, for whom, and when
/// it resumes, without a leader:
/// - when the first interval begins, the group stands at the interval's hold time (it plays on until
///   it reaches it if that is ahead, and steps back to it if it is behind), or where it is;
/// - it stays there while any interval lasts (up to each interval's wait limit);
/// - when the last one ends at group time `t`, it resumes at `t + resumeLeadTime`, so that the
///   message reaches everyone before the restart;
/// - an interval that ended before the state was issued is ignored, and so is one that began before
///   a state that plays immediately;
/// - an interval that began before the state was issued holds the group where the state puts it,
///   not at its own hold time: a seek made while the group waits moves the waiting group (Apple's
///   semantics: the seek applies to the whole group), and the group resumes from there.
///
/// - Complexity: building is O(k log k + k·a) for k intervals with at most a active at once.
public struct GroupTimeline: Sendable, Hashable {
    /// What the group is doing at a group time.
    public enum Status: Sendable, Hashable {
        /// Paused by a participant.
        case paused
        /// Playing, or about to start at the phase's anchor.
        case playing
        /// Held for participants (waiting for coordinated playback).
        case waiting
    }

    /// A participant the group waits for.
    public struct Blocker: Sendable, Hashable {
        /// Who.
        public var participant: CoordinatedPlaybackParticipant.ID
        /// Why.
        public var cause: WaitInterval.Cause
        /// When the group stops waiting for it at the latest, if known (its wait limit, or its
        /// expected duration such as the rest of an ad).
        public var expectedEnd: Duration?

        /// A blocker (for an app's tests of how it shows one).
        public init(participant: CoordinatedPlaybackParticipant.ID, cause: WaitInterval.Cause, expectedEnd: Duration? = nil) {
            self.participant = participant
            self.cause = cause
            self.expectedEnd = expectedEnd
        }
    }

    /// A span of group time with one anchor.
    public struct Phase: Sendable, Hashable {
        /// When the phase begins.
        public var from: Duration
        /// The coordinated time at ``anchorGroupTime`` (and before it).
        public var anchorTime: MediaTime
        /// When the group is at ``anchorTime`` and starts moving; `nil` while it is held.
        public var anchorGroupTime: Duration?
        /// Where the group stops to wait, if it does while moving.
        public var stopTime: MediaTime?
        /// Who the group waits for during the phase.
        public var blockers: [Blocker]
    }

    /// The group's rate when it moves.
    public let rate: Double
    /// The phases, by ``Phase/from``; the first starts at the state's issue time.
    public let phases: [Phase]

    /// Folds intervals into a state.
    ///
    /// - Parameters:
    ///   - state: the winning state for the item.
    ///   - intervals: every participant's intervals for the item.
    ///   - resumeLeadTime: how long after the last interval ends the group restarts.
    public init(
        state: CoordinatedPlaybackState,
        intervals: [(CoordinatedPlaybackParticipant.ID, WaitInterval)],
        resumeLeadTime: Duration
    ) {
        rate = state.rate
        let first = Phase(
            from: state.issuedAt,
            anchorTime: state.anchorTime,
            anchorGroupTime: state.anchorGroupTime,
            stopTime: nil,
            blockers: []
        )
        guard state.rate != 0 else {
            phases = [first]
            return
        }
        phases = Self.fold(first: first, rate: state.rate, state: state, intervals: intervals, lead: resumeLeadTime)
    }

    private struct Event: Comparable {
        var time: Duration
        var isEnd: Bool
        var participant: CoordinatedPlaybackParticipant.ID
        var index: Int

        static func < (lhs: Event, rhs: Event) -> Bool {
            if lhs.time != rhs.time { return lhs.time < rhs.time }
            if lhs.isEnd != rhs.isEnd { return lhs.isEnd }
            if lhs.participant != rhs.participant { return lhs.participant < rhs.participant }
            return lhs.index < rhs.index
        }
    }

    private static func fold(
        first: Phase,
        rate: Double,
        state: CoordinatedPlaybackState,
        intervals: [(CoordinatedPlaybackParticipant.ID, WaitInterval)],
        lead: Duration
    ) -> [Phase] {
        var events: [Event] = []
        var clipped: [WaitInterval] = []
        for (participant, interval) in intervals {
            if let end = interval.effectiveEnd, end <= state.issuedAt { continue }
            if state.playsImmediately, interval.start < state.issuedAt { continue }
            var interval = interval
            if interval.start < state.issuedAt {
                interval.start = state.issuedAt
                interval.holdTime = nil
            }
            let index = clipped.count
            clipped.append(interval)
            events.append(Event(time: interval.start, isEnd: false, participant: participant, index: index))
            if let end = interval.effectiveEnd {
                events.append(Event(time: max(end, interval.start), isEnd: true, participant: participant, index: index))
            }
        }
        events.sort()

        var phases = [first]
        var active: [Int: CoordinatedPlaybackParticipant.ID] = [:]
        func blockers() -> [Blocker] {
            active.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map { index, participant in
                let interval = clipped[index]
                let expected = interval.expectedDuration.map { interval.start + $0 }
                let limited = interval.waitLimit.map { interval.start + $0 }
                let end: Duration? = switch (expected, limited) {
                case (let a?, let b?): min(a, b)
                case (let a?, nil): a
                case (nil, let b?): b
                case (nil, nil): nil
                }
                return Blocker(participant: participant, cause: interval.cause, expectedEnd: end)
            }
        }
        func push(_ phase: Phase) {
            if phases[phases.count - 1].from == phase.from {
                phases[phases.count - 1] = phase
            } else {
                phases.append(phase)
            }
        }

        for event in events {
            var current = phases[phases.count - 1]
            let position = Self.time(in: current, rate: rate, at: event.time)
            let interval = clipped[event.index]
            if !event.isEnd {
                if interval.cause == .notReady, Self.isRunning(current, rate: rate, at: event.time) { continue }
                let wasHolding = !active.isEmpty
                active[event.index] = event.participant
                let hold = interval.holdTime ?? position
                let currentHold = wasHolding ? (current.stopTime ?? current.anchorTime) : nil
                current.from = event.time
                if let currentHold, !(hold < currentHold) {
                    // Already holding at or before this point: one more participant to wait for.
                    current.blockers = blockers()
                    push(current)
                    continue
                }
                if current.anchorGroupTime != nil, rate > 0, !(hold < position) {
                    current.stopTime = hold
                } else {
                    current = Phase(from: event.time, anchorTime: hold, anchorGroupTime: nil, stopTime: nil, blockers: [])
                }
                current.blockers = blockers()
                push(current)
            } else {
                guard active.removeValue(forKey: event.index) != nil else { continue }
                current.from = event.time
                if !active.isEmpty {
                    current.blockers = blockers()
                    push(current)
                    continue
                }
                if current.anchorGroupTime == nil || Self.hasStopped(current, rate: rate, at: event.time) {
                    current = Phase(
                        from: event.time,
                        anchorTime: position,
                        anchorGroupTime: event.time + lead,
                        stopTime: nil,
                        blockers: []
                    )
                } else {
                    current.stopTime = nil
                    current.blockers = []
                }
                push(current)
            }
        }
        return phases
    }

    private static func unclampedTime(in phase: Phase, rate: Double, at groupTime: Duration) -> MediaTime {
        guard let anchorGroupTime = phase.anchorGroupTime, groupTime > anchorGroupTime, rate != 0 else {
            return phase.anchorTime
        }
        return GroupTimeArithmetic.sum(phase.anchorTime, GroupTimeArithmetic.advance(groupTime - anchorGroupTime, rate: rate))
    }

    private static func time(in phase: Phase, rate: Double, at groupTime: Duration) -> MediaTime {
        let time = unclampedTime(in: phase, rate: rate, at: groupTime)
        if let stop = phase.stopTime, stop < time { return stop }
        return time
    }

    private static func hasStopped(_ phase: Phase, rate: Double, at groupTime: Duration) -> Bool {
        guard let stop = phase.stopTime else { return false }
        return !(unclampedTime(in: phase, rate: rate, at: groupTime) < stop)
    }

    private static func isRunning(_ phase: Phase, rate: Double, at groupTime: Duration) -> Bool {
        guard let anchorGroupTime = phase.anchorGroupTime, groupTime >= anchorGroupTime else { return false }
        return !hasStopped(phase, rate: rate, at: groupTime)
    }

    /// The phase in force at a group time (the first one before the state was issued).
    ///
    /// - Complexity: O(log p) in the number of phases.
    public func phase(at groupTime: Duration) -> Phase { phases[phaseIndex(at: groupTime)] }

    /// The index of ``phase(at:)``: the last phase begun by `groupTime`, or the first.
    func phaseIndex(at groupTime: Duration) -> Int {
        var low = 0
        var high = phases.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if phases[middle].from <= groupTime { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The coordinated time the group is at, at a group time.
    public func time(at groupTime: Duration) -> MediaTime {
        Self.time(in: phase(at: groupTime), rate: rate, at: groupTime)
    }

    /// What the group does at a group time.
    public func status(at groupTime: Duration) -> Status {
        if rate == 0 { return .paused }
        let current = phase(at: groupTime)
        if current.anchorGroupTime == nil || Self.hasStopped(current, rate: rate, at: groupTime) { return .waiting }
        return .playing
    }

    /// Who the group waits for at a group time (empty unless ``status(at:)`` is waiting, or about to
    /// be because the group plays on to a participant's hold time).
    public func blockers(at groupTime: Duration) -> [Blocker] {
        rate == 0 ? [] : phase(at: groupTime).blockers
    }

    /// The first group time after `groupTime` at which the group's behaviour changes (a phase
    /// begins, a start anchor is reached, or a moving group reaches its stop time); `nil` if none
    /// is known (it may still change when messages arrive).
    public func nextChange(after groupTime: Duration) -> Duration? {
        var earliest: Duration?
        func consider(_ at: Duration) {
            if at > groupTime, earliest.map({ at < $0 }) ?? true { earliest = at }
        }
        // Phases begin in increasing order: the next one is the first after the current.
        let index = phaseIndex(at: groupTime)
        if phases[index].from > groupTime {
            consider(phases[index].from)
        } else if index + 1 < phases.count {
            consider(phases[index + 1].from)
        }
        let current = phases[index]
        if rate != 0, let anchorGroupTime = current.anchorGroupTime {
            consider(anchorGroupTime)
            if let stop = current.stopTime, rate > 0 {
                let distance = GroupTimeArithmetic.difference(stop, current.anchorTime)
                consider(anchorGroupTime + GroupTimeArithmetic.groupDuration(toAdvance: distance, rate: rate))
            }
        }
        return earliest
    }
}
