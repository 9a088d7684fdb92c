public import HLSInterstitials
public import MediaTime
import VideoBackend

/// How `interlude-video --join` keeps its pipelines where the group has this viewer: a headless
/// reference player, bound to the group session, says where playback should be; the follower
/// compares that with the video (primary's pipeline, or the break its switcher plays) and says what
/// to do. The video plays and pauses with the reference, seeks when its primary time is more than
/// ``Configuration/threshold`` off, switches into a break the reference is in (by itself, through
/// its schedule, when it is about to reach it; otherwise at the reference's offset) and ends a
/// break early once the reference has left it.
///
/// Pure: each call takes both positions read at the same host time and returns the actions to
/// perform. After a seek, a switch into a break or an early end, the video's position is not
/// trusted for ``Configuration/settleTime`` (a flushing seek reports the old position for a while,
/// a switch's first report comes a poll later), so nothing but play and pause is decided then.
public struct GroupFollower: Sendable {
    public struct Configuration: Sendable, Hashable {
        /// How far (either way) the video's primary time may be from the reference's before it seeks.
        public var threshold: MediaTime = MediaTime(value: 250, timescale: 1000)
        /// A smaller offset that the video seeks away too once it has lasted ``steadyWindow``
        /// (after a start or a resume, a pipeline may settle some 200 ms behind, which the
        /// threshold alone would leave for good).
        public var steadyThreshold: MediaTime = MediaTime(value: 100, timescale: 1000)
        public var steadyWindow: Duration = .seconds(2)
        /// How long after acting the video's position is left to settle.
        public var settleTime: Duration = .milliseconds(1000)
        /// How far ahead of the reference a seek of the playing video aims at first: what the
        /// seek costs before its first frame plays (the reference moves on meanwhile). Each seek
        /// of a playing video then corrects it by how far off it landed (``GroupFollower/seekLead``).
        public var seekLead: MediaTime = MediaTime(value: 30, timescale: 1000)
        /// The most the learned lead may grow to.
        public var maximumSeekLead: MediaTime = MediaTime(value: 250, timescale: 1000)
        /// The least of a break, left for the reference, that the video enters to catch up: less
        /// than that, and the video waits where the break resumes primary instead (entering
        /// takes a preroll, and the break would be over before it showed much).
        public var minimumEntry: MediaTime = MediaTime(seconds: 1)

        public init() {}
    }

    /// Where the reference player is.
    public struct Reference: Sendable, Hashable {
        public var position: IntegratedTimeline.Position
        /// Whether its playhead moves (`TimeControlStatus.playing`); not while the group waits.
        public var isPlaying: Bool
        /// Its rate when it plays.
        public var rate: Double

        public init(position: IntegratedTimeline.Position, isPlaying: Bool, rate: Double = 1) {
            self.position = position
            self.isPlaying = isPlaying
            self.rate = rate
        }
    }

    /// Where the video is.
    public enum Video: Sendable, Hashable {
        /// Primary's pipeline has no position yet.
        case loading
        /// Primary plays (or is paused) at this time, at `rate`.
        case primary(MediaTime, isPlaying: Bool, rate: Double)
        /// The switcher plays this break (one of the plan's items: a pod's events).
        case inBreak(SwitchPlan.Item, isPlaying: Bool)
    }

    public enum Action: Sendable, Hashable {
        case play
        case pause
        /// Seek primary to this time (disarming a break it would cross).
        case seekPrimary(to: MediaTime)
        /// Change primary's rate (a flushing seek with the rate).
        case setRate(Double)
        /// Play the plan's break holding `eventID`, `offset` into that event.
        case playBreak(eventID: String, offset: MediaTime)
        /// End the break playing now (the switcher's `endBreak()`).
        case endBreak
    }

    /// How far the reference's rate may be from the video's before the video's changes.
    public static let rateTolerance = 0.01

    public let configuration: Configuration
    public let plan: SwitchPlan
    /// Until when (host time) the video's position is left to settle.
    public private(set) var settlesAt: Duration?
    /// How far ahead of the reference a seek of the playing video aims now: the configured
    /// lead, corrected after each seek by how far from the reference the video landed (a
    /// flushing seek costs some 30 to 70 ms here, more under load).
    public private(set) var seekLead: MediaTime
    /// Whether the last action was a seek of the playing video whose landing is still to be
    /// measured.
    private var isLanding = false
    /// Since when (host time) primary has been more than the steady threshold off.
    private var offSince: Duration?

    public init(plan: SwitchPlan, configuration: Configuration = Configuration()) {
        self.plan = plan
        self.configuration = configuration
        seekLead = configuration.seekLead
    }

    /// What to do at host time `now`, `reference` and `video` read then.
    public mutating func decide(reference: Reference, video: Video, at now: Duration) -> [Action] {
        var actions: [Action] = []
        let isVideoPlaying: Bool
        switch video {
        case .loading: return []
        case .primary(_, let isPlaying, _), .inBreak(_, let isPlaying): isVideoPlaying = isPlaying
        }
        if reference.isPlaying != isVideoPlaying { actions.append(reference.isPlaying ? .play : .pause) }
        if let settlesAt, now < settlesAt { return actions }
        settlesAt = nil
        if isLanding {
            isLanding = false
            if reference.isPlaying, abs(reference.rate - 1) <= Self.rateTolerance, case .primary(let target) = reference.position,
                case .primary(let time, true, let rate) = video, abs(rate - 1) <= Self.rateTolerance {
                seekLead = MediaTime.min(configuration.maximumSeekLead, MediaTime.max(.zero, seekLead - (time - target)))
            }
        }
        var moves = placement(reference: reference, video: video)
        if moves.isEmpty, case .primary(let target) = reference.position, case .primary(let time, _, _) = video,
            MediaTime.abs(target - time) > configuration.steadyThreshold
        {
            let since = offSince ?? now
            offSince = since
            if now - since >= configuration.steadyWindow { moves = [.seekPrimary(to: seekTarget(target, reference: reference))] }
        } else {
            offSince = nil
        }
        if !moves.isEmpty { offSince = nil }
        if moves.contains(where: { $0 != .setRate(reference.rate) }) { settlesAt = now + configuration.settleTime }
        if actions.isEmpty, reference.isPlaying, abs(reference.rate - 1) <= Self.rateTolerance, moves.last.map({ if case .seekPrimary = $0 { true } else { false } }) == true {
            isLanding = true
        }
        return actions + moves
    }

    /// The seek, switch or early end that puts the video where the reference is; none when it is
    /// there or about to be.
    private func placement(reference: Reference, video: Video) -> [Action] {
        let threshold = configuration.threshold
        switch (reference.position, video) {
        case (_, .loading):
            return []
        case (.primary(let target), .primary(let time, _, let rate)):
            var actions: [Action] = []
            // A rate the group asked for, not the coordinator's drift nudges (a few parts per
            // million): the pipeline changes rate with a flushing seek.
            if reference.isPlaying, reference.rate > 0, abs(reference.rate - rate) > Self.rateTolerance { actions.append(.setRate(reference.rate)) }
            return actions + seek(to: target, from: time, reference: reference)
        case (.interstitial(let eventID, let offset), .primary(let time, _, _)):
            guard let item = plan.item(containing: eventID) else { return [] }
            let eventStart = item.offset(ofEvent: eventID) ?? .zero
            // How far behind the reference the video would be if its switcher switched by itself.
            let start = item.scheduledBreak.start
            if !(time > start), (start - time) + eventStart + offset <= threshold { return [] }
            if item.scheduledBreak.duration - (eventStart + offset) < configuration.minimumEntry {
                let resumption = item.scheduledBreak.resumptionPoint
                return MediaTime.abs(resumption - time) > threshold ? [.seekPrimary(to: resumption)] : []
            }
            return [.playBreak(eventID: eventID, offset: offset)]
        case (.interstitial(let eventID, _), .inBreak(let item, _)):
            return item.eventIDs.contains(eventID) ? [] : [.endBreak]
        case (.primary(let target), .inBreak(let item, _)):
            // The reference is about to enter this break: the video entered it a moment early.
            let start = item.scheduledBreak.start
            if target < start, start - target <= threshold { return [] }
            // Back to primary where the break resumes it, and on to the reference from there.
            return [.endBreak] + seek(to: target, from: item.scheduledBreak.resumptionPoint, reference: reference)
        }
    }

    /// A seek from primary time `time` to the reference's `target`, when they are further apart
    /// than the threshold: ahead of it by the seek's cost when the reference plays.
    private func seek(to target: MediaTime, from time: MediaTime, reference: Reference) -> [Action] {
        guard MediaTime.abs(target - time) > configuration.threshold else { return [] }
        return [.seekPrimary(to: seekTarget(target, reference: reference))]
    }

    private func seekTarget(_ target: MediaTime, reference: Reference) -> MediaTime {
        let lead = reference.isPlaying ? seekLead.scaled(by: reference.rate) : .zero
        return MediaTime.max(.zero, target + lead)
    }
}

extension MediaTime {
    fileprivate static func abs(_ time: MediaTime) -> MediaTime { time < .zero ? .zero - time : time }

    fileprivate func scaled(by rate: Double) -> MediaTime {
        rate == 1 ? self : MediaTime(seconds: seconds * rate) ?? self
    }
}
