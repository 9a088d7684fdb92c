public import MediaTime

/// When to switch from primary content to one interstitial asset and back, each in its own
/// pipeline: the asset is prerolled (PAUSED at its start) ``preloadLead`` ahead of the switch
/// (at once when the break is nearer than that), so that it holds no decoder or connection
/// for a break minutes away and is ready when the break comes; the switch happens when primary's
/// position reaches the break's start, and primary comes back at the resumption point (sought to
/// exactly while the asset plays) when the asset ends or at the break's scheduled end, whichever
/// comes first.
///
/// The deadline is worked out from primary's position reports at rate 1: a report of position
/// `p` at host time `h` puts the switch at `h + (start − p)`. Each report re-anchors it, so the
/// host clock and the pipeline clock need not agree for long. The scheduled end is the switch's
/// deadline plus the break's duration, not the asset's own start plus it: a late switch does not
/// push the rest of the schedule back.
///
/// A break primary is at the start of when it first reports (a pre-roll at primary time 0, with
/// primary prerolled and not yet playing) switches as soon as the asset has prerolled: primary has
/// nothing to play before it, and the asset's first frame is then on time for the break's end.
///
/// Pure: inputs carry the host time (a `Duration` from the shell clock's zero) and return the
/// actions to perform, in order.
public struct InterstitialSwitchStateMachine: Sendable {
    /// One break of primary content.
    public struct Break: Sendable, Hashable {
        /// The primary time the break is scheduled at.
        public var start: MediaTime
        /// How long the break lasts at most (the asset may end before).
        public var duration: MediaTime
        /// How far past ``start`` primary resumes (HLS `X-RESUME-OFFSET`): zero for a break that
        /// is inserted (primary waits), the break's duration for one that replaces content.
        public var resumptionOffset: MediaTime

        public init(start: MediaTime, duration: MediaTime, resumptionOffset: MediaTime = .zero) {
            self.start = start
            self.duration = duration
            self.resumptionOffset = resumptionOffset
        }

        /// Where primary resumes.
        public var resumptionPoint: MediaTime { start + resumptionOffset }
    }

    public enum Input: Sendable, Hashable {
        /// Primary reported `position` at host time `at`.
        case primaryPosition(MediaTime, at: Duration)
        /// The asset's pipeline is prerolled at its start.
        case assetPrerolled
        /// The asset reached its end (end of stream).
        case assetEnded(at: Duration)
        /// The asset's pipeline failed (an error on its bus).
        case assetFailed(at: Duration)
        /// Host time passed (a scheduled wake).
        case wake(at: Duration)
    }

    public enum Action: Sendable, Hashable {
        /// Bring the asset's pipeline to PAUSED at its start.
        case prerollAsset
        /// Feed ``Input/wake(at:)`` at this host time (replacing any earlier request).
        case scheduleWake(at: Duration)
        /// Pause primary and play the asset.
        case switchToAsset
        /// Seek the paused primary exactly to this time, ahead of its return.
        case seekPrimary(to: MediaTime)
        /// Stop the asset and play primary.
        case switchToPrimary
    }

    /// Where the break is.
    public enum Phase: Sendable, Hashable {
        /// No position from primary yet.
        case awaitingPrimary
        /// Primary plays; the switch is due at this host time.
        case primary(switchAt: Duration)
        /// The asset plays; the break's scheduled end is at this host time.
        case asset(switchedAt: Duration, endsAt: Duration)
        /// Primary plays again: the break is over.
        case resumed(at: Duration)
        /// Primary was already past the break's start at its first report: the break is missed.
        case missed
        /// The asset failed: before the switch, primary plays on through the break's start;
        /// during the asset, primary comes back at the resumption point at once.
        case abandoned(at: Duration)

        /// Whether the break is over (played, missed or abandoned).
        public var isOver: Bool {
            switch self {
            case .resumed, .missed, .abandoned: true
            case .awaitingPrimary, .primary, .asset: false
            }
        }
    }

    public let scheduledBreak: Break
    /// How long before the switch the asset is prerolled.
    public let preloadLead: Duration
    public private(set) var phase: Phase = .awaitingPrimary
    /// Whether the asset was asked to preroll.
    public private(set) var isAssetRequested = false
    /// Whether the asset reported its preroll.
    public private(set) var isAssetPrerolled = false
    /// Whether the switch waits for the asset's preroll: primary was at the break's start when
    /// it first reported (a pre-roll).
    public private(set) var switchesOnPreroll = false

    /// A machine for `scheduledBreak`, prerolling its asset `preloadLead` ahead (5 s by default:
    /// an HLS asset's preroll over a network, playlist and first segment, takes a few hundred
    /// milliseconds).
    public init(scheduledBreak: Break, preloadLead: Duration = .seconds(5)) {
        self.scheduledBreak = scheduledBreak
        self.preloadLead = preloadLead
    }

    /// Whether the break is over (played or missed).
    public var isFinished: Bool { phase.isOver }

    public mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case .assetPrerolled:
            isAssetPrerolled = true
            return []
        case .primaryPosition(let position, let now):
            switch phase {
            case .awaitingPrimary:
                guard !(position > scheduledBreak.start) else {
                    phase = .missed
                    return []
                }
                switchesOnPreroll = position == scheduledBreak.start
                return primaryPlays(switchAt: now + Duration(rounding: scheduledBreak.start - position), now: now)
            case .primary:
                return primaryPlays(switchAt: now + Duration(rounding: scheduledBreak.start - position), now: now)
            case .asset, .resumed, .missed, .abandoned:
                return []
            }
        case .wake(let now):
            switch phase {
            case .primary(let deadline):
                return primaryPlays(switchAt: deadline, now: now)
            case .asset(_, let end) where end <= now:
                phase = .resumed(at: now)
                return [.switchToPrimary]
            case .awaitingPrimary, .asset, .resumed, .missed, .abandoned:
                return []
            }
        case .assetEnded(let now):
            guard case .asset = phase else { return [] }
            phase = .resumed(at: now)
            return [.switchToPrimary]
        case .assetFailed(let now):
            switch phase {
            case .awaitingPrimary, .primary:
                phase = .abandoned(at: now)
                return []
            case .asset:
                phase = .abandoned(at: now)
                return [.switchToPrimary]
            case .resumed, .missed, .abandoned:
                return []
            }
        }
    }

    /// Primary plays with the switch due at `deadline`: preroll the asset once within the lead,
    /// switch once the deadline has come, and wake at the next of the two.
    private mutating func primaryPlays(switchAt deadline: Duration, now: Duration) -> [Action] {
        phase = .primary(switchAt: deadline)
        var actions: [Action] = []
        if !isAssetRequested, deadline - preloadLead <= now {
            isAssetRequested = true
            actions.append(.prerollAsset)
        }
        guard deadline > now else {
            // A pre-roll switches once prerolled (``Input/assetPrerolled`` then a wake).
            if switchesOnPreroll, !isAssetPrerolled { return actions }
            // A pre-roll's schedule starts when it switches: there was nothing before it to keep on time.
            let switchedAt = switchesOnPreroll ? now : deadline
            let end = switchedAt + Duration(rounding: scheduledBreak.duration)
            phase = .asset(switchedAt: switchedAt, endsAt: end)
            return actions + [.switchToAsset, .seekPrimary(to: scheduledBreak.resumptionPoint), .scheduleWake(at: end)]
        }
        return actions + [.scheduleWake(at: isAssetRequested ? deadline : deadline - preloadLead)]
    }
}
