import HLSPlaylist
import MediaTime

/// Where every interstitial event plays on the primary timeline, and what plays between them
/// (RFC 8216bis Appendix D.2, D.5; Apple's interstitial event controller).
///
/// The schedule is an ordered list of items: primary spans and breaks. Each break knows its
/// primary start (after CUE and X-SNAP OUT), how long it plays, its effective resumption offset and
/// where primary resumes (after cumulative offsets of breaks sharing the start, and X-SNAP IN).
///
/// When a break resumes primary inside a later break's range (a pre-roll with X-RESUME-OFFSET=15
/// and a mid-roll on 10–20), the later break is not dropped: it is scheduled and joined at the
/// offset where primary resumes (5 s in, its asset list asked for with `_HLS_start_offset`), as a
/// live join inside a break is and as hls.js does; its span on the timelines stays whole and primary
/// resumes after it as usual. Joining rather than playing it from its start keeps what the viewer
/// sees on the primary timeline where the author put it. A break the resumption passes wholly is
/// skipped (``ExclusionReason/skippedByResumption``).
///
///     let schedule = InterstitialSchedule(primary: PrimaryTimeline(playlist: playlist),
///                                         events: InterstitialEvent.events(in: playlist).events)
///     schedule.breaks.map(\.start)     // [0, 12, 24, 36]
///
/// - Complexity: O(n + e log e) for n segments (already in the ``PrimaryTimeline``) and e events.
public struct InterstitialSchedule: Sendable, Hashable {
    /// What is known of a break's asset list.
    public enum AssetListState: Sendable, Hashable {
        /// Not requested or not answered yet: the break's stated duration is used.
        case pending
        /// Answered: its assets' durations replace the stated duration.
        case resolved(AssetList)
        /// The request or the document failed: the break is skipped with resumption offset 0 (D.5).
        case failed(String)
    }

    /// What the schedule is built for.
    public struct Options: Sendable, Hashable {
        /// Asset lists (or asset loads) known so far, by event identifier.
        public var assetLists: [String: AssetListState]
        /// `CUE=ONCE` events that have already started playing: they are not scheduled again.
        public var playedOnce: Set<String>
        /// Where playback starts on the primary timeline: the live join point, or a VOD start
        /// position. Join (PRE) events play there. `nil` = the start of the primary timeline.
        public var startTime: MediaTime?

        /// Options.
        public init(assetLists: [String: AssetListState] = [:], playedOnce: Set<String> = [], startTime: MediaTime? = nil) {
            self.assetLists = assetLists
            self.playedOnce = playedOnce
            self.startTime = startTime
        }
    }

    /// A scheduled break: one event with its resolved positions.
    public struct Break: Sendable, Hashable, Identifiable {
        /// The event.
        public var event: InterstitialEvent {
            get { storage.values.event }
            set { mutate { $0.event = newValue } }
        }
        /// Where primary is left for the break, after CUE and X-SNAP OUT.
        public var start: MediaTime {
            get { storage.values.start }
            set { mutate { $0.start = newValue } }
        }
        /// How long the break plays: resolved asset durations when known, else the stated
        /// duration, capped by X-PLAYOUT-LIMIT; `nil` when unknown.
        public var duration: MediaTime? {
            get { storage.values.duration }
            set { mutate { $0.duration = newValue } }
        }
        /// The effective resumption offset of this event alone.
        public var resumptionOffset: MediaTime {
            get { storage.values.resumptionOffset }
            set { mutate { $0.resumptionOffset = newValue } }
        }
        /// Where primary resumes after this break and every earlier break sharing its start
        /// (offsets add up), after X-SNAP IN; the primary end for a leave (POST) event.
        public var resumeTime: MediaTime {
            get { storage.values.resumeTime }
            set { mutate { $0.resumeTime = newValue } }
        }
        /// What is known of its assets.
        public var assetListState: AssetListState {
            get { storage.values.assetListState }
            set { mutate { $0.assetListState = newValue } }
        }
        /// The assets to play, when known (the asset list's, or the single X-ASSET-URI).
        public var assets: [AssetList.Asset]? {
            get { storage.values.assets }
            set { mutate { $0.assets = newValue } }
        }
        /// The skip control in force (the asset list's keys override the event's, D.3).
        public var skipControl: InterstitialEvent.SkipControl? {
            get { storage.values.skipControl }
            set { mutate { $0.skipControl = newValue } }
        }

        /// The event identifier.
        public var id: String { event.identifier }

        /// Whether two breaks share their storage: one taken from an earlier schedule.
        package func isStored(like other: Break) -> Bool { storage === other.storage }

        /// The length the break takes on the integrated timeline: zero for a single-point event,
        /// its duration for a fill event.
        public var integratedDuration: MediaTime {
            event.timelineOccupancy == .fill ? (duration ?? .zero) : .zero
        }

        /// The length it takes on the playout timeline (every break its full duration).
        public var playoutDuration: MediaTime { duration ?? .zero }

        /// Whether it plays nothing (an empty asset list, a failed load, a zero duration).
        public var playsNothing: Bool {
            if case .failed = assetListState { return true }
            if let assets, assets.isEmpty { return true }
            return false
        }

        /// The asset playing `offset` into the break, and the offset into that asset.
        public func asset(at offset: MediaTime) -> (index: Int, offset: MediaTime)? {
            guard let assets, !assets.isEmpty else { return nil }
            var start = MediaTime.zero
            for (index, asset) in assets.enumerated() {
                guard let length = asset.duration else { return (index, offset - start) }
                if offset < start + length || index == assets.count - 1 { return (index, offset - start) }
                start += length
            }
            return nil
        }

        /// The stored values, behind a copy-on-write reference so that copying a value costs one
        /// retain (schedules, timelines and playlists copy these often).
        struct Values: Sendable, Hashable {
            var event: InterstitialEvent = InterstitialEvent(identifier: "", start: .time(.zero))
            var start: MediaTime = .zero
            var duration: MediaTime? = nil
            var resumptionOffset: MediaTime = .zero
            var resumeTime: MediaTime = .zero
            var assetListState: AssetListState = .pending
            var assets: [AssetList.Asset]? = nil
            var skipControl: InterstitialEvent.SkipControl? = nil
        }

        final class Storage: @unchecked Sendable {
            // Mutated only through `mutate`, which copies first unless this reference is unique.
            var values: Values
            init(_ values: Values) { self.values = values }
        }

        private var storage: Storage

        /// A scheduled break.
        init(event: InterstitialEvent, start: MediaTime, duration: MediaTime?, resumptionOffset: MediaTime, resumeTime: MediaTime,
             assetListState: AssetListState, assets: [AssetList.Asset]?, skipControl: InterstitialEvent.SkipControl?) {
            storage = Storage(Values(event: event, start: start, duration: duration, resumptionOffset: resumptionOffset,
                                     resumeTime: resumeTime, assetListState: assetListState, assets: assets, skipControl: skipControl))
        }

        private mutating func mutate<Result>(_ body: (inout Values) -> Result) -> Result {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.values) }
            return body(&storage.values)
        }

        /// Equal when every attribute is equal.
        public static func == (lhs: Break, rhs: Break) -> Bool {
            lhs.storage === rhs.storage || lhs.storage.values == rhs.storage.values
        }

        /// Hashes every attribute.
        public func hash(into hasher: inout Hasher) { hasher.combine(storage.values) }
    }

    /// An item of the schedule, in playback order.
    public enum Item: Sendable, Hashable {
        /// Primary content over `range` of the primary timeline.
        case primary(MediaTimeRange)
        /// A break.
        case interstitial(Break)
    }

    /// Why an event is not on the schedule.
    public enum ExclusionReason: String, Sendable, Hashable {
        /// Its START-DATE cannot be mapped (the playlist has no EXT-X-PROGRAM-DATE-TIME).
        case unmappableDate
        /// It starts after the end of a VOD primary.
        case afterEnd
        /// It starts before the primary timeline (a live window that slid past it) and does not
        /// cover the window's start.
        case beforeStart
        /// A POST (leave) event on a live primary: it plays only once the playlist ends.
        case leaveCueOnLive
        /// A `CUE=ONCE` event that has already played.
        case playedOnce
        /// An earlier break's resumption offset skips past it wholly (one it resumes inside is
        /// scheduled, and joined at the offset).
        case skippedByResumption
        /// Interstitials inside interstitials are ignored (D.1); or the event is otherwise unusable.
        case invalid
    }

    /// The primary timeline the schedule is laid on.
    public let primary: PrimaryTimeline
    /// Primary spans and breaks, in playback order.
    public let items: [Item]
    /// Events left off the schedule, with the reason.
    public let exclusions: [(id: String, reason: ExclusionReason)]
    /// What a schedule built for the next reload may take from this one (not part of equality).
    let memo: Memo

    /// Equal schedules have equal items and exclusions.
    public static func == (lhs: InterstitialSchedule, rhs: InterstitialSchedule) -> Bool {
        lhs.primary == rhs.primary && lhs.items == rhs.items && lhs.exclusions.elementsEqual(rhs.exclusions, by: { $0.id == $1.id && $0.reason == $1.reason })
    }

    /// Hashes the items.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(primary)
        hasher.combine(items)
    }

    /// The breaks, in playback order.
    public var breaks: [Break] {
        items.compactMap { if case .interstitial(let scheduled) = $0 { return scheduled } else { return nil } }
    }

    /// The break scheduled for an event, if any.
    public func scheduledBreak(id: String) -> Break? {
        breaks.first { $0.id == id }
    }

    /// Lays `events` (in the order they were given: playlist tag order, or the controller's order)
    /// on `primary`.
    public init(primary: PrimaryTimeline, events: [InterstitialEvent], options: Options = Options()) {
        self.init(primary: primary, events: events, options: options, reusing: nil)
    }

    /// Lays `events` on `primary` as ``init(primary:events:options:)`` does, taking from
    /// `previous` (the schedule of the playlist's previous load) what cannot have changed: a live
    /// reload that slides the window and announces a break places only the new break and the
    /// primary spans beside it.
    ///
    /// An event is taken as it was when it is the same event (the one ``InterstitialEvent/events(in:reusing:)``
    /// kept), its asset list's state is unchanged, and its START-DATE falls inside a segment both
    /// timelines hold (`primary` continuing `previous.primary`, see
    /// ``PrimaryTimeline/init(playlist:continuing:)``); a resume point snapped inside such a
    /// segment is taken as it was too. Everything else is worked out as from scratch, so the result
    /// always equals `InterstitialSchedule(primary: primary, events: events, options: options)`.
    ///
    /// - Complexity: O(e) for e events, with no look-up on the primary timeline for an event taken
    ///   as it was (the look-ups are what a whole build spends its time on).
    public init(primary: PrimaryTimeline, events: [InterstitialEvent], options: Options = Options(), reusing previous: InterstitialSchedule?) {
        self.primary = primary
        var reuse = previous.flatMap { Reuse(previous: $0.memo, earlierPrimary: $0.primary, primary: primary, options: options) }
        var placed = [Memo.Placed?](repeating: nil, count: events.count)
        var exclusions: [(id: String, reason: ExclusionReason)] = []
        // Join (PRE) events play where playback starts; the timeline itself always begins where
        // the primary timeline does, so content before the start point stays seekable.
        let startTime = options.startTime ?? primary.start
        let timelineStart = primary.start

        // 1. Resolve each event's start, duration and own resumption offset.
        var resolved: [Break] = []
        var placements: [Placement] = []
        resolved.reserveCapacity(events.count)
        placements.reserveCapacity(events.count)
        let hasAssetLists = !options.assetLists.isEmpty
        let hasPlayedOnce = !options.playedOnce.isEmpty
        for (order, event) in events.enumerated() {
            if hasPlayedOnce, event.willPlayOnce, options.playedOnce.contains(event.identifier) {
                exclusions.append((event.identifier, .playedOnce))
                continue
            }
            // The same event, placed inside segments both timelines hold: as it was.
            if let earlier = reuse?.placed(event), let anchor = earlier.anchor {
                let scheduled = earlier.scheduled
                let (start, duration) = (scheduled.start, scheduled.duration)
                // The bounds may have moved: the checks that read them are made again.
                if !primary.isLive, primary.end < start {
                    exclusions.append((event.identifier, .afterEnd))
                    continue
                }
                if start < timelineStart, !(duration.map { timelineStart < start + $0 } ?? false) {
                    exclusions.append((event.identifier, .beforeStart))
                    continue
                }
                resolved.append(scheduled)
                placements.append(Placement(
                    start: start, duration: duration, resumptionOffset: scheduled.resumptionOffset, order: order, rank: 1,
                    snapsResumption: event.alignsResumptionWithPrimarySegmentBoundary, isJoin: false,
                    anchor: anchor, earlierResume: earlier.resume
                ))
                continue
            }
            var anchor: PrimaryTimeline.DateAnchor?
            var start: MediaTime
            switch event.cue {
            case .join:
                start = startTime
            case .leave:
                guard !primary.isLive else {
                    exclusions.append((event.identifier, .leaveCueOnLive))
                    continue
                }
                start = primary.end
            case .none:
                switch event.start {
                case .time(let time):
                    start = time
                case .date(let date):
                    guard let mapped = primary.mapping(date) else {
                        exclusions.append((event.identifier, .unmappableDate))
                        continue
                    }
                    start = mapped.time
                    anchor = mapped.anchor
                }
                if event.alignsStartWithPrimarySegmentBoundary {
                    start = primary.nearestSegmentBoundary(to: start)
                    // Past the last segment of a VOD the closest boundary is the end (D.2 X-SNAP).
                    if !primary.isLive, primary.end < start { start = primary.end }
                }
            }
            let state = hasAssetLists ? options.assetLists[event.identifier] ?? .pending : .pending
            let assets: [AssetList.Asset]?
            var skipControl = event.skipControl
            switch state {
            case .resolved(let list):
                assets = list.assets
                if let override = list.skipControl { skipControl = override.applied(to: skipControl) }
            case .pending, .failed:
                assets = event.assetListURI == nil ? event.assetURIs.map { AssetList.Asset(uri: $0, duration: event.duration) } : nil
            }
            let duration = Self.playedDuration(event: event, state: state)
            let offset = Self.resumptionOffset(event: event, state: state, duration: duration)
            let scheduled = Break(
                event: event, start: start, duration: duration, resumptionOffset: offset, resumeTime: start + offset,
                assetListState: state, assets: assets, skipControl: skipControl
            )
            if event.cue == .none {
                if !primary.isLive, primary.end < start {
                    exclusions.append((event.identifier, .afterEnd))
                    continue
                }
                // A break that starts before the primary timeline (a live window that slid past its
                // start) is kept only while the window starts inside it.
                if start < timelineStart {
                    let coversStart = duration.map { timelineStart < start + $0 } ?? false
                    if !coversStart {
                        exclusions.append((event.identifier, .beforeStart))
                        continue
                    }
                }
            }
            resolved.append(scheduled)
            placements.append(Placement(
                start: start, duration: duration, resumptionOffset: offset, order: order, rank: Self.rank(of: event),
                snapsResumption: event.alignsResumptionWithPrimarySegmentBoundary, isJoin: event.cue == .join,
                anchor: anchor, earlierResume: nil
            ))
        }

        // 2. Order by start; at the same start join events first and leave events last; ties keep
        //    tag order (D.2: "played in the order that their EXT-X-DATERANGE tags appear").
        //    Sorting indices keeps the breaks themselves from being moved around.
        var alreadyOrdered = true
        for position in placements.indices.dropFirst() {
            let (previous, current) = (placements[position - 1], placements[position])
            if current.start < previous.start || (current.start == previous.start && current.rank < previous.rank) {
                alreadyOrdered = false
                break
            }
        }
        if !alreadyOrdered {
            var permutation = Array(resolved.indices)
            permutation.sort { lhs, rhs in
                let (left, right) = (placements[lhs], placements[rhs])
                if left.start != right.start { return left.start < right.start }
                if left.rank != right.rank { return left.rank < right.rank }
                return left.order < right.order
            }
            resolved = permutation.map { resolved[$0] }
            placements = permutation.map { placements[$0] }
        }

        // 3. Walk the timeline: primary up to each group of breaks sharing a start, the breaks with
        //    cumulative resumption, then primary from the resume point.
        var items: [Item] = []
        items.reserveCapacity(resolved.count * 2 + 1)
        var cursor = timelineStart
        var index = 0
        while index < resolved.count {
            let groupStart = placements[index].start
            let groupRank = placements[index].rank
            var groupEnd = index
            while groupEnd < resolved.count, placements[groupEnd].start == groupStart, placements[groupEnd].rank == groupRank {
                groupEnd += 1
            }
            // An earlier break resumed primary past this group's start: a group it passes wholly
            // is skipped; one it resumes inside is joined there, at the offset (as a live join or
            // a seek into it would; hls.js does the same).
            var joinedAt: MediaTime?
            if groupRank == 1, groupStart < cursor, !(items.isEmpty && groupStart < timelineStart) {
                joinedAt = cursor
                if !(placements[index].duration.map { cursor < groupStart + $0 } ?? false) {
                    for skipped in resolved[index..<groupEnd] { exclusions.append((skipped.id, .skippedByResumption)) }
                    index = groupEnd
                    continue
                }
            }
            if cursor < groupStart {
                items.append(.primary(MediaTimeRange(start: cursor, end: groupStart)))
            }
            var cumulative = MediaTime.zero
            for member in index..<groupEnd {
                let placement = placements[member]
                cumulative += placement.resumptionOffset
                var resume = groupStart + cumulative
                var snapped: Memo.Snap?
                if placement.snapsResumption, member == groupEnd - 1 {
                    if let earlier = placement.earlierResume, earlier.point == resume, reuse?.holdsAlike(resume) == true {
                        snapped = earlier
                    } else {
                        snapped = Memo.Snap(point: resume, boundary: primary.nearestSegmentBoundary(to: resume))
                    }
                    resume = snapped!.boundary
                }
                // A join event on a live primary resumes at the live point, not behind it.
                if placement.isJoin, primary.isLive { resume = MediaTime.max(resume, groupStart) }
                // A leave (POST) event plays after primary has ended (D.2): primary does not resume.
                if groupRank == 2 { resume = primary.end }
                // A joined group never sends primary back before where it was joined.
                if let joinedAt { resume = MediaTime.max(resume, joinedAt) }
                // Set in place: a break not shared yet is not copied, and one taken from the previous
                // schedule is kept whole when it resumes where it did.
                if resolved[member].resumeTime != resume { resolved[member].resumeTime = resume }
                cursor = resume
                items.append(.interstitial(resolved[member]))
                placed[placement.order] = Memo.Placed(scheduled: resolved[member], anchor: placement.anchor, resume: snapped)
            }
            index = groupEnd
        }
        if cursor < primary.end {
            items.append(.primary(MediaTimeRange(start: cursor, end: primary.end)))
        }
        self.items = items
        self.exclusions = exclusions
        self.memo = Memo(events: events, options: options, placed: placed)
    }

    /// Join events play first at a shared start, leave events last.
    private static func rank(of event: InterstitialEvent) -> UInt8 {
        event.cue == .join ? 0 : event.cue == .leave ? 2 : 1
    }

    /// What ordering and the walk read of a resolved break, kept beside it so that neither goes
    /// through the break's storage.
    private struct Placement {
        var start: MediaTime
        var duration: MediaTime?
        var resumptionOffset: MediaTime
        /// The event's position in the given order.
        var order: Int
        var rank: UInt8
        var snapsResumption: Bool
        var isJoin: Bool
        /// How its START-DATE was mapped, when a later reload may map it alike.
        var anchor: PrimaryTimeline.DateAnchor?
        /// Where the previous schedule snapped its resume point, when it was taken from there.
        var earlierResume: Memo.Snap?
    }

    /// What a schedule keeps for the one built at the next reload: its input, and for each event
    /// that became a break, the break and how it was placed.
    struct Memo: Sendable {
        /// A resume point and the segment boundary it snapped to (X-SNAP=IN).
        struct Snap: Sendable {
            var point: MediaTime
            var boundary: MediaTime
        }

        struct Placed: Sendable {
            var scheduled: Break
            var anchor: PrimaryTimeline.DateAnchor?
            var resume: Snap?
        }

        var events: [InterstitialEvent]
        var options: Options
        /// By position in `events`.
        var placed: [Placed?]
    }

    /// What a build may take from the previous schedule: the events it placed, matched to the new
    /// ones in order, as long as the timelines share the segments their dates fall in.
    private struct Reuse {
        let previous: Memo
        let earlierPrimary: PrimaryTimeline
        let primary: PrimaryTimeline
        let shared: Range<Int>
        /// The primary times both timelines hold alike: from the first shared segment's start to
        /// the last one's end.
        let sharedTimes: MediaTimeRange
        /// The events whose asset-list state changed.
        let changedAssetLists: [String]
        private var cursor = 0

        /// How far ahead of the walk a match is looked for (events gone between two reloads).
        private static let window = 8
        /// How many changed asset lists are compared by name; with more, nothing is reused.
        private static let changeLimit = 8

        init?(previous: Memo, earlierPrimary: PrimaryTimeline, primary: PrimaryTimeline, options: Options) {
            guard options.playedOnce == previous.options.playedOnce, options.startTime == previous.options.startTime,
                primary.isLive == earlierPrimary.isLive,
                let shared = primary.sequenceNumbersShared(with: earlierPrimary), let sharedTimes = primary.times(ofSequenceNumbers: shared)
            else { return nil }
            var changed: [String] = []
            if options.assetLists != previous.options.assetLists {
                for (id, state) in options.assetLists where previous.options.assetLists[id] != state { changed.append(id) }
                for id in previous.options.assetLists.keys where options.assetLists[id] == nil { changed.append(id) }
                guard changed.count <= Self.changeLimit else { return nil }
            }
            self.previous = previous
            self.earlierPrimary = earlierPrimary
            self.primary = primary
            self.shared = shared
            self.sharedTimes = sharedTimes
            self.changedAssetLists = changed
        }

        /// The previous placement of `event` when it may be taken as it was: the same event, the
        /// same asset-list state, its date mapped alike on both timelines.
        mutating func placed(_ event: InterstitialEvent) -> Memo.Placed? {
            let events = previous.events
            var candidate = cursor
            while candidate < min(cursor + Self.window, events.count) {
                if events[candidate].isStored(like: event) {
                    cursor = candidate + 1
                    guard let placed = previous.placed[candidate], let anchor = placed.anchor,
                        primary.mapsAlike(anchor, as: earlierPrimary, sharing: shared)
                    else { return nil }
                    if !changedAssetLists.isEmpty, changedAssetLists.contains(event.identifier) { return nil }
                    return placed
                }
                candidate += 1
            }
            return nil
        }

        /// Whether a time lies in a segment both timelines hold, so that it snaps alike.
        func holdsAlike(_ time: MediaTime) -> Bool {
            sharedTimes.holdsInside(time)
        }
    }

    /// How long a break plays: the asset list's total when resolved (D.2), else the stated
    /// duration; capped by the playout limit.
    public static func playedDuration(event: InterstitialEvent, state: AssetListState) -> MediaTime? {
        var duration: MediaTime?
        switch state {
        case .failed:
            return .zero
        case .resolved(let list):
            if let total = list.totalDuration {
                duration = total
            } else {
                // Some assets have no DURATION: the known sum is a lower bound.
                var known = MediaTime.zero
                for asset in list.assets { if let length = asset.duration { known += length } }
                duration = MediaTime.max(known, event.duration ?? event.plannedDuration ?? .zero)
            }
        case .pending:
            duration = event.duration ?? event.plannedDuration
        }
        if let limit = event.playoutLimit {
            return duration.map { MediaTime.min($0, limit) } ?? limit
        }
        return duration
    }

    /// The resumption offset of one event (D.2, D.5): X-RESUME-OFFSET when given; else, for a
    /// playlist event, the played duration (which the playout limit already caps); zero when the
    /// break plays nothing or failed; zero by default for a client event.
    public static func resumptionOffset(event: InterstitialEvent, state: AssetListState, duration: MediaTime?) -> MediaTime {
        if case .failed = state { return .zero }
        if let explicit = event.resumptionOffset {
            // Indefinite means "by the wall-clock time the break took": its duration, on a timeline.
            return explicit.isIndefinite ? (duration ?? .zero) : explicit
        }
        if case .resolved(let list) = state, list.assets.isEmpty { return .zero }
        switch event.origin {
        case .playlist: return duration ?? .zero
        case .client: return .zero
        }
    }
}
