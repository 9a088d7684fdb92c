import HLSInterstitials
import HLSPlaylist
import MediaTime

/// The event controller of the current item (Apple's `AVPlayerInterstitialEventController` and
/// its monitor): the playlist's and the app's interstitial events, their asset lists, the schedule
/// that places them on the primary timeline, which breaks this pass has played, and the integrated
/// timeline's segments. A value with no clock and no I/O: positions come in as parameters, and
/// what changed comes back as events to report.
package struct InterstitialController: Sendable {
    /// The events of the primary media playlist.
    package var playlistEvents: [InterstitialEvent] = []
    /// The app's (client-side) events.
    package var clientEvents: [InterstitialEvent] = []
    /// What is known of each break's asset list, by event.
    package var assetLists: [String: InterstitialSchedule.AssetListState] = [:]
    /// The asset lists on their way, by event: their load ids.
    package var assetListRequests: [String: UInt64] = [:]
    /// Where each asset list came from (its assets' URIs resolve against it).
    package var assetListURLs: [String: String] = [:]
    /// The events played that play once (X-CUE ONCE): the schedule leaves them out after.
    package var playedOnce: Set<String> = []
    /// The breaks played (or passed over) in this pass.
    package var consumed: Set<String> = [] {
        didSet { updateNextBreakIndex() }
    }
    package var schedule: InterstitialSchedule? {
        didSet { breaks = schedule?.breaks ?? [] }
    }
    /// The schedule's breaks, in order (kept: the schedule computes them on each access).
    package var breaks: [InterstitialSchedule.Break] = [] {
        didSet { updateNextBreakIndex() }
    }
    /// The index in `breaks` of the first break not consumed (kept: asked at every input).
    package private(set) var nextBreakIndex: Int?
    /// The integrated timeline's segments as last reported.
    package var lastSegments: [IntegratedTimeline.Segment] = []
    /// The snapshot they came from, which the next refresh builds on.
    private var lastSnapshot: IntegratedTimeline.Snapshot?
    /// Where a preload date range (RFC 8216bis Appendix F) asks for a break's asset list to be
    /// loaded, by event identifier: the primary time of the range's start.
    package var preloadPoints: [String: MediaTime] = [:]
    /// The event identifiers last reported.
    package var playlistEventsSeen: [String] = []

    /// A controller with no events but the app's `clientEvents`.
    package init(clientEvents: [InterstitialEvent] = []) {
        self.clientEvents = clientEvents
    }

    /// Every event: the playlist's, then the app's that the playlist does not define.
    package var mergedEvents: [InterstitialEvent] {
        guard !clientEvents.isEmpty else { return playlistEvents }
        let ids = Set(playlistEvents.map(\.identifier))
        return playlistEvents + clientEvents.filter { !ids.contains($0.identifier) }
    }

    /// Rebuilds the schedule on `timeline` (from `playlist`, the primary media playlist) after a
    /// reload, an asset list, a played-once event or new client events; `playing` is the break
    /// being played, which stays in the schedule even if it plays once. Returns what changed, as
    /// events to report.
    package mutating func refresh(timeline: PrimaryTimeline, playlist: MediaPlaylist?, startTime: MediaTime?, playing: String?) -> [PlayerEvent.Kind] {
        var changes: [PlayerEvent.Kind] = []
        let events = mergedEvents
        let previousIDs = playlistEventsSeen
        var once = playedOnce
        if let playing { once.remove(playing) }
        let options = InterstitialSchedule.Options(assetLists: assetLists, playedOnce: once, startTime: startTime)
        let updated = InterstitialSchedule(primary: timeline, events: events, options: options, reusing: schedule)
        schedule = updated
        preloadPoints = timeline.isLive ? Self.preloadPoints(in: playlist, on: timeline) : [:]
        let ids = events.map(\.identifier)
        if ids != previousIDs {
            playlistEventsSeen = ids
            changes.append(.interstitialEventsChanged(ids: ids))
        }
        let snapshot = IntegratedTimeline.Snapshot(schedule: updated, reusing: lastSnapshot)
        lastSnapshot = snapshot
        let segments = snapshot.segments
        if segments != lastSegments {
            let hadSegments = !lastSegments.isEmpty
            lastSegments = segments
            if hadSegments { changes.append(.timelineChanged(reasons: [.segmentsChanged])) }
        }
        return changes
    }

    /// The preload date ranges (Appendix F) of a live playlist that name an interstitial: where each
    /// asks for its target's asset list to be loaded. The client may pick any point inside the
    /// range; this one takes its start, so that runs are repeatable. A playlist with EXT-X-ENDLIST
    /// has none that count, and a range whose X-TARGET-CLASS is not the interstitial class is
    /// ignored.
    package static func preloadPoints(in playlist: MediaPlaylist?, on timeline: PrimaryTimeline) -> [String: MediaTime] {
        guard let playlist, !playlist.hasEndList else { return [:] }
        var points: [String: MediaTime] = [:]
        for range in playlist.consolidatedDateRanges where range.className == DateRange.preloadClass {
            guard range.preloadURI != nil, let target = range.preloadTargetID, range.preloadTargetClass == DateRange.interstitialClass,
                let date = range.startDate, let time = timeline.time(for: date)
            else { continue }
            points[target] = points[target].map { MediaTime.min($0, time) } ?? time
        }
        return points
    }

    /// Where a break's asset list is asked for: `lead` before its start, or earlier where a
    /// preload date range says so (never later than the lead).
    package func assetListLoadPoint(_ scheduled: InterstitialSchedule.Break, lead: MediaTime) -> MediaTime {
        let lead = scheduled.start - lead
        guard let point = preloadPoints[scheduled.id] else { return lead }
        return MediaTime.min(point, lead)
    }

    /// Whether a break's asset list is still to be asked for: it has one, not known and not on
    /// its way, and the break has not been played in this pass.
    package func wantsAssetList(_ scheduled: InterstitialSchedule.Break) -> Bool {
        scheduled.event.assetListURI != nil && assetLists[scheduled.id] == nil && assetListRequests[scheduled.id] == nil && !consumed.contains(scheduled.id)
    }

    /// A break's first asset as written (no URL built: deadlines ask whether there is one at
    /// every input), once known (its asset list resolved, or X-ASSET-URI).
    package func firstAssetURI(of scheduled: InterstitialSchedule.Break) -> String? {
        let event = scheduled.event
        if event.assetListURI != nil {
            guard case .resolved(let list)? = assetLists[event.identifier] else { return nil }
            return list.assets.first?.uri
        }
        return event.assetURIs.first
    }

    /// What a break's asset URIs resolve against: its asset list's URL once the list is
    /// resolved, else `primaryBase`.
    package func assetBase(for eventID: String, primaryBase: String?) -> String? {
        guard case .resolved? = assetLists[eventID] else { return primaryBase }
        return assetListURLs[eventID] ?? primaryBase
    }

    /// The skip control in force for a break: the event's, as the asset list overrides it.
    package func effectiveSkipControl(_ scheduled: InterstitialSchedule.Break) -> InterstitialEvent.SkipControl? {
        var control = scheduled.event.skipControl
        if case .resolved(let list)? = assetLists[scheduled.id], let override = list.skipControl {
            control = override.applied(to: control)
        }
        return control
    }

    // MARK: The breaks of this pass

    /// The first break not yet played in this pass.
    package func nextBreak() -> InterstitialSchedule.Break? {
        nextBreakIndex.map { breaks[$0] }
    }

    /// The breaks from the first not consumed on (every earlier one is consumed).
    package var breaksNotConsumed: ArraySlice<InterstitialSchedule.Break> { breaks[(nextBreakIndex ?? breaks.endIndex)...] }

    /// Keeps ``nextBreakIndex`` as `breaks` and `consumed` change.
    private mutating func updateNextBreakIndex() {
        nextBreakIndex = breaks.firstIndex { !consumed.contains($0.id) }
    }

    /// After a jump to `time`: breaks before it count as played, those after as not; breaks at
    /// `time` ahead of `eventID` in the schedule count as played.
    ///
    /// Breaks at exactly `time` that had already played stay played when `eventID` is `nil`: a
    /// jump to where a break starts, made after it played (a coordinator placing the player where
    /// the group is), lands after the break, not before it.
    package mutating func markConsumed(before time: MediaTime, including eventID: String?) {
        let previous = consumed
        consumed = []
        for scheduled in breaks {
            if scheduled.id == eventID { break }
            if scheduled.start < time || (eventID != nil && scheduled.start == time) { consumed.insert(scheduled.id) }
            if eventID == nil, scheduled.start == time, previous.contains(scheduled.id) { consumed.insert(scheduled.id) }
        }
    }

    // MARK: The integrated timeline

    /// The integrated timeline's segment of a break.
    package func segment(ofEvent eventID: String) -> IntegratedTimeline.Segment? {
        lastSegments.first { $0.eventID == eventID }
    }

    /// The primary segment of the integrated timeline that plays primary time `time` (or the last
    /// one before it).
    package func primarySegment(containing time: MediaTime) -> IntegratedTimeline.Segment? {
        var best: IntegratedTimeline.Segment?
        for segment in lastSegments where segment.segmentType == .primary {
            let source = segment.timeMapping.source
            if !(time < source.start), time < source.end { return segment }
            if !(time < source.start) { best = segment }
        }
        return best
    }
}
