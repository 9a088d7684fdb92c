import HLSInterstitials
import MediaTime

/// Drives a transport bar from the player's snapshots and the user's gestures, the way
/// `AVPlayerViewController` keeps its bar in step with `AVPlayerItemIntegratedTimeline`:
///
/// - it redraws the bar only when the segments changed and updates the controls (the break's
///   countdown, the skip button) only when the current segment changed or the skip button's
///   window opened or closed; a snapshot in which only time moved just moves the playhead (S2.8);
/// - a scrub is a session (begin, move, refine, commit or cancel), like a slider's scrubbing
///   speeds: moving by a fraction of the bar's width moves the target by that fraction of the
///   bar's extent times the refinement's factor (S3.10); the committed target is resolved through
///   the integrated timeline, so a seek past an `X-RESTRICT=JUMP` break plays the break first;
/// - inside an `X-RESTRICT=SKIP` break, no skip and no seek forward: a scrub's target stops at
///   the current time and a skip or forward step is refused.
///
/// Pure: every input returns the actions to perform, in order.
public struct TransportBarStateMachine: Sendable {
    /// How finely a scrub follows the pointer.
    public enum Refinement: Sendable, Hashable, CaseIterable {
        /// The target follows the pointer one to one.
        case highSpeed
        /// Half as far as the pointer moves.
        case halfSpeed
        /// A quarter as far.
        case quarterSpeed
        /// A tenth as far.
        case fine

        /// The fraction of the pointer's movement the target follows.
        public var factor: Double {
            switch self {
            case .highSpeed: 1
            case .halfSpeed: 0.5
            case .quarterSpeed: 0.25
            case .fine: 0.1
            }
        }
    }

    /// What a scrub would do if committed now.
    public struct ScrubPreview: Sendable, Hashable {
        /// The integrated time the scrub aims at.
        public var target: MediaTime
        /// How finely it follows the pointer.
        public var refinement: Refinement
        /// The `X-RESTRICT=JUMP` break a commit would play first, if the target lies past one.
        public var playsBreakFirst: String?
        /// Whether the target was held back at the current time by an `X-RESTRICT=SKIP` break.
        public var isHeldByRestriction: Bool

        /// A preview.
        public init(target: MediaTime, refinement: Refinement, playsBreakFirst: String? = nil, isHeldByRestriction: Bool = false) {
            self.target = target
            self.refinement = refinement
            self.playsBreakFirst = playsBreakFirst
            self.isHeldByRestriction = isHeldByRestriction
        }
    }

    /// Why a request was not carried out.
    public enum Refusal: Error, Sendable, Hashable {
        /// No snapshot yet: nothing to seek in.
        case noTimeline
        /// The break playing carries `X-RESTRICT=SKIP`: no skip, no seek forward.
        case restricted(eventID: String)
        /// The break's skip control is not open now.
        case notSkippable(eventID: String)
        /// No break is playing.
        case notInBreak
    }

    /// What can happen.
    public enum Input: Sendable, Hashable {
        /// The player published a snapshot.
        case snapshot(IntegratedTimeline.Snapshot)
        /// The user started scrubbing (touched the slider's thumb).
        case beginScrub
        /// The pointer moved by this fraction of the bar's width (negative: to the left).
        case moveScrub(byFraction: Double)
        /// The user changed the scrubbing speed (moved the pointer away from the bar).
        case refineScrub(Refinement)
        /// The user let go: seek to the target.
        case commitScrub
        /// The user abandoned the scrub: the playhead goes back.
        case cancelScrub
        /// A step from the current time (a key press, a remote's skip-forward button).
        case step(by: MediaTime)
        /// The user pressed the skip button.
        case skipBreak
    }

    /// What the view (and the player) must do.
    public enum Action: Sendable, Hashable {
        /// Redraw the whole bar.
        case redraw(TransportBar)
        /// Update the controls: the current break (countdown, skip button), or none.
        case updateControls(TransportBar.CurrentBreak?)
        /// Move the playhead, and with it the break's countdown.
        case movePlayhead(MediaTime, breakRemaining: MediaTime?)
        /// Show (or move) the scrub preview.
        case showScrubPreview(ScrubPreview)
        /// Hide the scrub preview.
        case hideScrubPreview
        /// Ask the player to seek to this position.
        case seek(IntegratedTimeline.Position)
        /// Ask the player to play this `X-RESTRICT=JUMP` break from its start, then go on.
        case playBreakFirst(eventID: String, then: IntegratedTimeline.Position)
        /// Ask the player to skip the current break.
        case skipCurrentBreak(eventID: String)
        /// Tell the user the request was refused.
        case refused(Refusal)
    }

    private struct Scrub: Sendable, Hashable {
        var origin: MediaTime
        var target: MediaTime
        var refinement: Refinement
        var isHeldByRestriction: Bool
    }

    private enum State: Sendable {
        case awaitingSnapshot
        case tracking(IntegratedTimeline.Snapshot, TransportBar)
        case scrubbing(IntegratedTimeline.Snapshot, TransportBar, Scrub)
    }

    private var state: State = .awaitingSnapshot

    /// A machine waiting for its first snapshot.
    public init() {}

    /// The bar as last drawn (the scrub's target as its playhead while scrubbing); `nil` before
    /// the first snapshot.
    public var bar: TransportBar? {
        switch state {
        case .awaitingSnapshot: nil
        case .tracking(_, let bar): bar
        case .scrubbing(_, let bar, let scrub):
            bar.withPlayhead(scrub.target)
        }
    }

    /// Whether a scrub session is open.
    public var isScrubbing: Bool {
        if case .scrubbing = state { return true }
        return false
    }

    /// Handles one input.
    public mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case .snapshot(let snapshot): return receive(snapshot)
        case .beginScrub: return beginScrub()
        case .moveScrub(let fraction): return moveScrub(byFraction: fraction)
        case .refineScrub(let refinement): return refineScrub(refinement)
        case .commitScrub: return endScrub(commit: true)
        case .cancelScrub: return endScrub(commit: false)
        case .step(let delta): return step(by: delta)
        case .skipBreak: return skipBreak()
        }
    }

    // MARK: Snapshots

    private mutating func receive(_ snapshot: IntegratedTimeline.Snapshot) -> [Action] {
        let bar = TransportBar(snapshot: snapshot)
        switch state {
        case .awaitingSnapshot:
            state = .tracking(snapshot, bar)
            return [.redraw(bar), .updateControls(bar.currentBreak)]
        case .tracking(let old, let oldBar):
            state = .tracking(snapshot, bar)
            return changes(from: old, oldBar, to: snapshot, bar, drawnPlayhead: nil)
        case .scrubbing(let old, let oldBar, var scrub):
            // The thumb stays under the pointer; a restriction that began meanwhile holds it.
            if !(bar.currentBreak?.allowsSeekingForward ?? true), scrub.origin < scrub.target {
                scrub.origin = snapshot.currentTime
                scrub.target = MediaTime.min(scrub.target, snapshot.currentTime)
                scrub.isHeldByRestriction = true
            }
            state = .scrubbing(snapshot, bar, scrub)
            return changes(from: old, oldBar, to: snapshot, bar, drawnPlayhead: scrub.target)
        }
    }

    private func changes(
        from old: IntegratedTimeline.Snapshot, _ oldBar: TransportBar, to new: IntegratedTimeline.Snapshot, _ bar: TransportBar,
        drawnPlayhead: MediaTime?
    ) -> [Action] {
        var actions: [Action] = []
        let reasons = new.changeReasons(since: old)
        if reasons.contains(.segmentsChanged) {
            actions.append(.redraw(drawnPlayhead.map(bar.withPlayhead) ?? bar))
        }
        if reasons.contains(.currentSegmentChanged) || oldBar.currentBreak?.isSkippable != bar.currentBreak?.isSkippable {
            actions.append(.updateControls(bar.currentBreak))
        }
        let moved = oldBar.playhead != bar.playhead || oldBar.currentBreak?.offset != bar.currentBreak?.offset
        if drawnPlayhead == nil, moved, !reasons.contains(.segmentsChanged) {
            actions.append(.movePlayhead(bar.playhead, breakRemaining: bar.currentBreak?.remaining))
        }
        return actions
    }

    // MARK: Scrubbing

    private mutating func beginScrub() -> [Action] {
        switch state {
        case .awaitingSnapshot:
            return [.refused(.noTimeline)]
        case .scrubbing:
            return []
        case .tracking(let snapshot, let bar):
            let scrub = Scrub(origin: bar.playhead, target: bar.playhead, refinement: .highSpeed, isHeldByRestriction: false)
            state = .scrubbing(snapshot, bar, scrub)
            return [.showScrubPreview(preview(scrub, snapshot))]
        }
    }

    private mutating func moveScrub(byFraction fraction: Double) -> [Action] {
        guard case .scrubbing(let snapshot, let bar, var scrub) = state else { return [] }
        let seconds = fraction * bar.knownDuration.seconds * scrub.refinement.factor
        guard let delta = MediaTime(seconds: seconds, preferredTimescale: 1000) else { return [] }
        var target = MediaTimeRange(start: bar.start, duration: bar.knownDuration).clamp(scrub.target + delta)
        scrub.isHeldByRestriction = false
        if !(bar.currentBreak?.allowsSeekingForward ?? true), scrub.origin < target {
            target = scrub.origin
            scrub.isHeldByRestriction = true
        }
        scrub.target = target
        state = .scrubbing(snapshot, bar, scrub)
        return [.showScrubPreview(preview(scrub, snapshot))]
    }

    private mutating func refineScrub(_ refinement: Refinement) -> [Action] {
        guard case .scrubbing(let snapshot, let bar, var scrub) = state, scrub.refinement != refinement else { return [] }
        scrub.refinement = refinement
        state = .scrubbing(snapshot, bar, scrub)
        return [.showScrubPreview(preview(scrub, snapshot))]
    }

    private mutating func endScrub(commit: Bool) -> [Action] {
        guard case .scrubbing(let snapshot, let bar, let scrub) = state else { return [] }
        state = .tracking(snapshot, bar)
        guard commit else { return [.hideScrubPreview, .movePlayhead(bar.playhead, breakRemaining: bar.currentBreak?.remaining)] }
        return [.hideScrubPreview] + seek(to: scrub.target, in: snapshot, bar)
    }

    private func preview(_ scrub: Scrub, _ snapshot: IntegratedTimeline.Snapshot) -> ScrubPreview {
        var breakFirst: String?
        if case .playInterstitialFirst(let eventID, _) = snapshot.resolveSeek(toTimelineTime: scrub.target) { breakFirst = eventID }
        return ScrubPreview(target: scrub.target, refinement: scrub.refinement, playsBreakFirst: breakFirst,
                            isHeldByRestriction: scrub.isHeldByRestriction)
    }

    // MARK: Seeking and skipping

    private func step(by delta: MediaTime) -> [Action] {
        switch state {
        case .awaitingSnapshot:
            return [.refused(.noTimeline)]
        case .scrubbing:
            return []
        case .tracking(let snapshot, let bar):
            let target = MediaTimeRange(start: bar.start, duration: bar.knownDuration).clamp(bar.playhead + delta)
            return seek(to: target, in: snapshot, bar)
        }
    }

    private func seek(to target: MediaTime, in snapshot: IntegratedTimeline.Snapshot, _ bar: TransportBar) -> [Action] {
        switch snapshot.resolveSeek(toTimelineTime: target) {
        case .position(let position):
            return [.seek(position)]
        case .playInterstitialFirst(let eventID, let then):
            return [.playBreakFirst(eventID: eventID, then: then)]
        case .refused:
            if let current = bar.currentBreak, !current.allowsSeekingForward { return [.refused(.restricted(eventID: current.eventID))] }
            return [.refused(.noTimeline)]
        }
    }

    private func skipBreak() -> [Action] {
        let bar: TransportBar
        switch state {
        case .awaitingSnapshot: return [.refused(.noTimeline)]
        case .scrubbing: return []
        case .tracking(_, let tracked): bar = tracked
        }
        guard let current = bar.currentBreak else { return [.refused(.notInBreak)] }
        if !current.allowsSeekingForward { return [.refused(.restricted(eventID: current.eventID))] }
        guard current.isSkippable else { return [.refused(.notSkippable(eventID: current.eventID))] }
        return [.skipCurrentBreak(eventID: current.eventID)]
    }
}
