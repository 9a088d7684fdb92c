import HLSInterstitials
import MediaTime

/// What a transport bar shows, drawn from one integrated-timeline snapshot (S2.3, S2.11), the way
/// `AVPlayerViewController` draws its bar from `AVPlayerItemIntegratedTimeline`: a slider over the
/// known extent of the integrated timeline with the playhead at the current time, a dot for each
/// point break at its mapped start (time stands still while it plays), a highlighted span for each
/// range break, except one that supplements primary content (`X-TIMELINE-STYLE="PRIMARY"`), which
/// is drawn as primary, and the break playing now with what the user may do about it.
///
/// A value: build a new one from each snapshot. ``TransportBarStateMachine`` decides when to.
public struct TransportBar: Sendable, Hashable {
    /// A break drawn on the bar.
    public struct Mark: Sendable, Hashable {
        /// How the break is drawn.
        public enum Kind: Sendable, Hashable {
            /// A dot: the break takes no length on the integrated timeline.
            case point
            /// A highlighted span as long as the break.
            case range
        }

        /// The break's event identifier.
        public var eventID: String
        /// Dot or span.
        public var kind: Kind
        /// Where the break sits on the integrated timeline; empty for a point.
        public var timelineRange: MediaTimeRange
    }

    /// The break playing now, with the restrictions the bar honours (Apple's
    /// `AVPlayerInterstitialEvent.Restrictions` and skip control).
    public struct CurrentBreak: Sendable, Hashable {
        /// The break's event identifier.
        public var eventID: String
        /// How far into the break playback is.
        public var offset: MediaTime
        /// How long the break plays, once known (its duration, else its planned duration).
        public var duration: MediaTime?
        /// `X-RESTRICT`: `SKIP` forbids skipping and seeking forward inside the break, `JUMP`
        /// forbids seeking past it from before it.
        public var restrictions: InterstitialEvent.Restrictions
        /// The skip button's window (D.3), the asset list's keys applied.
        public var skipControl: InterstitialEvent.SkipControl?

        /// What is left of the break, once its length is known; never negative.
        public var remaining: MediaTime? {
            duration.map { MediaTime.max($0 - offset, .zero) }
        }

        /// Whether the user may seek forward inside the break (no `X-RESTRICT=SKIP`).
        public var allowsSeekingForward: Bool {
            !restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement)
        }

        /// Whether a skip button shows now: the skip control's window is open at ``offset`` and
        /// the break does not carry `X-RESTRICT=SKIP`. The restriction wins over an authored skip
        /// control: skipping a break advances past content the restriction says must play at the
        /// preferred rate.
        public var isSkippable: Bool {
            guard allowsSeekingForward, let skip = skipControl, !(offset < skip.offset) else { return false }
            return skip.duration.map { offset < skip.offset + $0 } ?? true
        }
    }

    /// The integrated time at the bar's left end.
    public let start: MediaTime
    /// The extent the bar spans: the whole item for VOD, the known window for live.
    public let knownDuration: MediaTime
    /// Whether the item is live (its duration is indefinite).
    public let isLive: Bool
    /// The integrated time the playhead is drawn at: the current time, or a scrub's target.
    public var playhead: MediaTime
    /// The breaks drawn, in timeline order.
    public let marks: [Mark]
    /// The break playing now, if any.
    public let currentBreak: CurrentBreak?

    /// The integrated time at the bar's right end.
    public var end: MediaTime { start + knownDuration }

    /// The bar for `snapshot`.
    ///
    /// - Complexity: O(s) in the number of segments.
    public init(snapshot: IntegratedTimeline.Snapshot) {
        let start = snapshot.segments.first?.timeMapping.target.start ?? snapshot.currentTime
        self.start = start
        self.knownDuration = snapshot.knownDuration
        self.isLive = snapshot.duration.isIndefinite
        self.playhead = snapshot.currentTime
        self.marks = snapshot.segments.compactMap { segment -> Mark? in
            guard segment.segmentType == .interstitial, let event = segment.interstitialEvent else { return nil }
            let target = segment.timeMapping.target
            if target.duration.isZero {
                return Mark(eventID: event.identifier, kind: .point, timelineRange: target)
            }
            return event.supplementsPrimaryContent ? nil : Mark(eventID: event.identifier, kind: .range, timelineRange: target)
        }
        if case .interstitial(let eventID, let offset) = snapshot.currentPosition,
            let event = snapshot.currentSegment?.interstitialEvent
        {
            let scheduled = snapshot.schedule.scheduledBreak(id: eventID)
            self.currentBreak = CurrentBreak(
                eventID: eventID,
                offset: offset,
                duration: scheduled?.duration ?? event.plannedDuration,
                restrictions: event.restrictions,
                skipControl: scheduled?.skipControl ?? event.skipControl
            )
        } else {
            self.currentBreak = nil
        }
    }

    /// The same bar with the playhead drawn at `time` (a scrub's target).
    public func withPlayhead(_ time: MediaTime) -> TransportBar {
        var bar = self
        bar.playhead = time
        return bar
    }

    /// The playhead clamped to the bar.
    var clampedPlayhead: MediaTime { MediaTimeRange(start: start, duration: knownDuration).clamp(playhead) }
}
