import HLSPlaylist
import MediaTime

/// An interstitial: a separate asset (an ad, a promo, a recap) scheduled on a primary item's
/// timeline, with the properties of Apple's `AVPlayerInterstitialEvent` and the attributes of an
/// HLS interstitial EXT-X-DATERANGE (RFC 8216bis Appendix D).
///
/// Events come from two places, with different defaults:
/// - a playlist's DATERANGE with `CLASS="com.apple.hls.interstitial"` (``init(dateRange:)``): when
///   X-RESUME-OFFSET is absent the resumption offset is the break's duration (primary skips as much
///   content as the break lasted), and X-TIMELINE-OCCUPIES defaults to POINT;
/// - the client API (``init(identifier:start:assetURIs:...)``), like Apple's programmatic events:
///   the resumption offset defaults to zero (primary resumes where it left off).
public struct InterstitialEvent: Sendable, Hashable, Identifiable {
    /// Where on the primary timeline the event is scheduled.
    public enum Start: Sendable, Hashable {
        /// A primary item time (programmatic events created with a time).
        case time(MediaTime)
        /// A date, mapped through EXT-X-PROGRAM-DATE-TIME (`START-DATE`).
        case date(PlaylistDate)
    }

    /// When the event triggers relative to primary playback (`CUE`; Apple's `cue`).
    public enum Cue: String, Sendable, Hashable {
        /// At its start time.
        case none
        /// Before primary playback starts, wherever it starts (`CUE="PRE"`, Apple's `joinCue`).
        case join
        /// After primary has played to its end without error (`CUE="POST"`, Apple's `leaveCue`).
        case leave
    }

    /// How the event appears on an integrated timeline (`X-TIMELINE-OCCUPIES`).
    public enum TimelineOccupancy: String, Sendable, Hashable {
        /// A single point: the break takes no length; time stands still while it plays (default).
        case singlePoint
        /// A range as long as the break: time advances through it.
        case fill
    }

    /// Navigation restrictions (`X-RESTRICT`; Apple's `AVPlayerInterstitialEvent.Restrictions`).
    public struct Restrictions: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public var rawValue: Int
        /// Creates restrictions.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `JUMP`: no seek from before the event to after it without playing it first.
        public static let constrainsSeekingForwardInPrimaryContent = Restrictions(rawValue: 1 << 0)
        /// `SKIP`: while the event plays, no seeking forward and no rate above 1.
        public static let requiresPlaybackAtPreferredRateForAdvancement = Restrictions(rawValue: 1 << 2)
    }

    /// When a skip button appears during the break and for how long (D.3), relative to the start
    /// of the whole break.
    public struct SkipControl: Sendable, Hashable {
        /// Seconds into the break before the button appears (0 = at once).
        public var offset: MediaTime
        /// How long the button stays; `nil` = until the break ends.
        public var duration: MediaTime?
        /// The key of a localised label, if any.
        public var labelID: String?

        /// A skip control.
        public init(offset: MediaTime, duration: MediaTime? = nil, labelID: String? = nil) {
            self.offset = offset
            self.duration = duration
            self.labelID = labelID
        }
    }

    /// Where the event came from, which decides its defaults.
    public enum Origin: String, Sendable, Hashable {
        /// A DATERANGE tag of the primary playlist.
        case playlist
        /// The client API.
        case client
    }

    /// The identifier (`ID`); unique among a primary item's events.
    public var identifier: String {
        get { storage.values.identifier }
        set { mutate { $0.identifier = newValue } }
    }
    /// Where it is scheduled.
    public var start: Start {
        get { storage.values.start }
        set { mutate { $0.start = newValue } }
    }
    /// The asset URIs to play in order (`X-ASSET-URI`, or client template items).
    public var assetURIs: [String] {
        get { storage.values.assetURIs }
        set { mutate { $0.assetURIs = newValue } }
    }
    /// The URI of a JSON asset list to fetch (`X-ASSET-LIST`), resolved against the playlist URI.
    public var assetListURI: String? {
        get { storage.values.assetListURI }
        set { mutate { $0.assetListURI = newValue } }
    }
    /// The resumption offset: `nil` means the default of the event's ``origin`` (for a playlist event
    /// the break's duration, for a client event zero); ``MediaTime/indefinite`` means resume by
    /// the wall-clock time the break took (live). Signed (`X-RESUME-OFFSET`).
    public var resumptionOffset: MediaTime? {
        get { storage.values.resumptionOffset }
        set { mutate { $0.resumptionOffset = newValue } }
    }
    /// The most the break may play (`X-PLAYOUT-LIMIT`); `nil` = no limit.
    public var playoutLimit: MediaTime? {
        get { storage.values.playoutLimit }
        set { mutate { $0.playoutLimit = newValue } }
    }
    /// Leave primary at the segment boundary nearest the start (`X-SNAP=OUT`).
    public var alignsStartWithPrimarySegmentBoundary: Bool {
        get { storage.values.alignsStartWithPrimarySegmentBoundary }
        set { mutate { $0.alignsStartWithPrimarySegmentBoundary = newValue } }
    }
    /// Resume primary at the segment boundary nearest the resumption point (`X-SNAP=IN`).
    public var alignsResumptionWithPrimarySegmentBoundary: Bool {
        get { storage.values.alignsResumptionWithPrimarySegmentBoundary }
        set { mutate { $0.alignsResumptionWithPrimarySegmentBoundary = newValue } }
    }
    /// Navigation restrictions.
    public var restrictions: Restrictions {
        get { storage.values.restrictions }
        set { mutate { $0.restrictions = newValue } }
    }
    /// When it triggers.
    public var cue: Cue {
        get { storage.values.cue }
        set { mutate { $0.cue = newValue } }
    }
    /// `CUE=ONCE`: the event is not scheduled again once it has started playing.
    public var willPlayOnce: Bool {
        get { storage.values.willPlayOnce }
        set { mutate { $0.willPlayOnce = newValue } }
    }
    /// Point or range on the integrated timeline.
    public var timelineOccupancy: TimelineOccupancy {
        get { storage.values.timelineOccupancy }
        set { mutate { $0.timelineOccupancy = newValue } }
    }
    /// `X-TIMELINE-STYLE="PRIMARY"`: show the break unified with primary content.
    public var supplementsPrimaryContent: Bool {
        get { storage.values.supplementsPrimaryContent }
        set { mutate { $0.supplementsPrimaryContent = newValue } }
    }
    /// `X-CONTENT-MAY-VARY`: whether participants may get different content (default true); a
    /// break with `false` is played in sync by a coordinated group.
    public var contentMayVary: Bool {
        get { storage.values.contentMayVary }
        set { mutate { $0.contentMayVary = newValue } }
    }
    /// The duration the playlist states (`DURATION`, or `END-DATE` − `START-DATE`, or for
    /// `END-ON-NEXT` the time to the next interstitial's `START-DATE`).
    public var duration: MediaTime? {
        get { storage.values.duration }
        set { mutate { $0.duration = newValue } }
    }
    /// The expected duration while the real one is unknown (`PLANNED-DURATION`).
    public var plannedDuration: MediaTime? {
        get { storage.values.plannedDuration }
        set { mutate { $0.plannedDuration = newValue } }
    }
    /// The skip button, if any.
    public var skipControl: SkipControl? {
        get { storage.values.skipControl }
        set { mutate { $0.skipControl = newValue } }
    }
    /// Other `X-` attributes with their values as written.
    public var userDefinedAttributes: [String: String] {
        get { storage.values.userDefinedAttributes }
        set { mutate { $0.userDefinedAttributes = newValue } }
    }
    /// Where the event came from.
    public var origin: Origin {
        get { storage.values.origin }
        set { mutate { $0.origin = newValue } }
    }

    /// The identifier.
    public var id: String { identifier }

    /// A client-side event, with the defaults of Apple's programmatic events: resumption offset
    /// zero, single-point occupancy, content that may vary, no restrictions.
    public init(
        identifier: String,
        start: Start,
        assetURIs: [String] = [],
        assetListURI: String? = nil,
        resumptionOffset: MediaTime? = .zero,
        playoutLimit: MediaTime? = nil,
        restrictions: Restrictions = [],
        cue: Cue = .none,
        willPlayOnce: Bool = false,
        timelineOccupancy: TimelineOccupancy = .singlePoint,
        supplementsPrimaryContent: Bool = false,
        contentMayVary: Bool = true,
        plannedDuration: MediaTime? = nil,
        skipControl: SkipControl? = nil,
        userDefinedAttributes: [String: String] = [:]
    ) {
        self.identifier = identifier
        self.start = start
        self.assetURIs = assetURIs
        self.assetListURI = assetListURI
        self.resumptionOffset = resumptionOffset
        self.playoutLimit = playoutLimit
        self.alignsStartWithPrimarySegmentBoundary = false
        self.alignsResumptionWithPrimarySegmentBoundary = false
        self.restrictions = restrictions
        self.cue = cue
        self.willPlayOnce = willPlayOnce
        self.timelineOccupancy = timelineOccupancy
        self.supplementsPrimaryContent = supplementsPrimaryContent
        self.contentMayVary = contentMayVary
        self.plannedDuration = plannedDuration
        self.skipControl = skipControl
        self.userDefinedAttributes = userDefinedAttributes
        self.origin = .client
    }

    /// The stored values, behind a copy-on-write reference so that copying a value costs one
    /// retain (schedules, timelines and playlists copy these often).
    struct Values: Sendable, Hashable {
        var identifier: String = ""
        var start: Start = .time(.zero)
        var assetURIs: [String] = []
        var assetListURI: String? = nil
        var resumptionOffset: MediaTime? = nil
        var playoutLimit: MediaTime? = nil
        var alignsStartWithPrimarySegmentBoundary: Bool = false
        var alignsResumptionWithPrimarySegmentBoundary: Bool = false
        var restrictions: Restrictions = []
        var cue: Cue = .none
        var willPlayOnce: Bool = false
        var timelineOccupancy: TimelineOccupancy = .singlePoint
        var supplementsPrimaryContent: Bool = false
        var contentMayVary: Bool = false
        var duration: MediaTime? = nil
        var plannedDuration: MediaTime? = nil
        var skipControl: SkipControl? = nil
        var userDefinedAttributes: [String: String] = [:]
        var origin: Origin = .client
        /// The (consolidated) DATERANGE a playlist event was made from, so that a reload can tell
        /// an unchanged event from a changed one.
        var sourceDateRange: DateRange?
    }

    final class Storage: @unchecked Sendable {
        // Mutated only through `mutate`, which copies first unless this reference is unique.
        var values: Values
        init(_ values: Values) { self.values = values }
    }

    var storage = Storage(Values())

    private mutating func mutate<Result>(_ body: (inout Values) -> Result) -> Result {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.values) }
        return body(&storage.values)
    }

    /// Equal when every attribute is equal.
    public static func == (lhs: InterstitialEvent, rhs: InterstitialEvent) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.values == rhs.storage.values
    }

    /// Hashes every attribute.
    public func hash(into hasher: inout Hasher) { hasher.combine(storage.values) }
}

/// Why a DATERANGE cannot become an interstitial event.
public struct InterstitialEventError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The date range's ID.
    public var identifier: String
    /// What is wrong.
    public var message: String
    /// Whether the event was kept despite the problem (a later same-ID tag's conflicting attribute
    /// was ignored); `false` when the tag could not become an event.
    public var keepsEvent: Bool

    /// An error about the date range `identifier`.
    public init(identifier: String, message: String, keepsEvent: Bool = false) {
        self.identifier = identifier
        self.message = message
        self.keepsEvent = keepsEvent
    }

    /// `ID: message`.
    public var description: String { "interstitial \"\(identifier)\": \(message)" }
}

extension InterstitialEvent {
    /// The event a (consolidated) interstitial DATERANGE describes, with the specification's
    /// defaults (Appendix D.2): resumption offset = the break's duration when X-RESUME-OFFSET is
    /// absent, POINT occupancy, HIGHLIGHT style, content may vary. Unknown enumerated values count
    /// as absent and unknown list tokens are ignored.
    ///
    /// - Throws: ``InterstitialEventError`` when the range is not an interstitial, has no
    ///   START-DATE, has neither or both of X-ASSET-URI and X-ASSET-LIST, or a CUE with both PRE
    ///   and POST.
    public init(dateRange range: DateRange) throws(InterstitialEventError) {
        guard range.isInterstitial else {
            throw InterstitialEventError(identifier: range.id, message: "CLASS is not \"\(DateRange.interstitialClass)\"")
        }
        guard let startDate = range.startDate else {
            throw InterstitialEventError(identifier: range.id, message: "START-DATE is missing")
        }
        switch (range.assetURI, range.assetList) {
        case (nil, nil):
            throw InterstitialEventError(identifier: range.id, message: "needs X-ASSET-URI or X-ASSET-LIST")
        case (.some, .some):
            throw InterstitialEventError(identifier: range.id, message: "has both X-ASSET-URI and X-ASSET-LIST; exactly one is allowed")
        default:
            break
        }
        let cue = range.cue ?? []
        // §4.4.5.1: CUE "MUST NOT include both PRE and POST"; such a tag is invalid (hls.js ignores it).
        if cue.contains(.pre), cue.contains(.post) {
            throw InterstitialEventError(identifier: range.id, message: "CUE includes both PRE and POST")
        }
        let snap = range.snap ?? []
        let restrict = range.restrict ?? []
        var restrictions: Restrictions = []
        if restrict.contains(.jump) { restrictions.insert(.constrainsSeekingForwardInPrimaryContent) }
        if restrict.contains(.skip) { restrictions.insert(.requiresPlaybackAtPreferredRateForAdvancement) }
        var attributes: [String: String] = [:]
        for attribute in range.clientAttributes where attribute.name != "X-CUE" {
            attributes[attribute.name] = attribute.value.text
        }
        // One storage, filled at once (a DVR playlist turns thousands of tags into events).
        storage = Storage(Values(
            identifier: range.id,
            start: .date(startDate),
            assetURIs: range.assetURI.map { [$0] } ?? [],
            assetListURI: range.assetList,
            resumptionOffset: range.resumeOffset,
            playoutLimit: range.playoutLimit,
            alignsStartWithPrimarySegmentBoundary: snap.contains(.out),
            alignsResumptionWithPrimarySegmentBoundary: snap.contains(.in),
            restrictions: restrictions,
            cue: cue.contains(.pre) ? .join : cue.contains(.post) ? .leave : .none,
            willPlayOnce: cue.contains(.once),
            timelineOccupancy: range.timelineOccupies == .range ? .fill : .singlePoint,
            supplementsPrimaryContent: range.timelineStyle == .primary,
            contentMayVary: range.contentMayVary?.boolValue ?? true,
            duration: range.resolvedDuration,
            plannedDuration: range.plannedDuration,
            skipControl: range.skipControlOffset.map {
                SkipControl(offset: $0, duration: range.skipControlDuration, labelID: range.skipControlLabelID)
            },
            userDefinedAttributes: attributes,
            origin: .playlist,
            sourceDateRange: range
        ))
    }

    /// The interstitial events of a playlist, in tag order, with same-ID tags consolidated; tags
    /// that cannot become events are returned as errors beside them (players ignore them). An
    /// END-ON-NEXT event without a stated duration lasts until the START-DATE of the next
    /// interstitial (§4.4.5.1, its "Following Range").
    ///
    /// - Parameter previous: the events of the previous load of a live playlist; an event whose
    ///   tag has not changed is reused instead of being made again.
    /// - Complexity: O(n + d log d) for n segments and d date ranges.
    public static func events(
        in playlist: MediaPlaylist, reusing previous: [InterstitialEvent] = []
    ) -> (events: [InterstitialEvent], errors: [InterstitialEventError]) {
        var events: [InterstitialEvent] = []
        var errors: [InterstitialEventError] = []
        var endsOnNext: [Int] = []
        let (ranges, conflicts) = playlist.consolidatingDateRanges()
        // On a live reload most tags are unchanged: their events are kept rather than made again.
        let earlier = ReusedEvents(previous: previous, ranges: ranges)
        for conflict in conflicts {
            // §4.4.5.1 forbids the change; a tolerant reader keeps the first value and the tag's
            // other attributes, and says so.
            errors.append(InterstitialEventError(
                identifier: conflict.id,
                message: "a later tag changes \(conflict.attribute) from \(conflict.earlierValue) to \(conflict.laterValue); "
                    + "the first value is kept, and the tag's other attributes are used",
                keepsEvent: true
            ))
        }
        for (position, range) in ranges.enumerated() where range.isInterstitial {
            if let kept = earlier.event(for: range, at: position) {
                events.append(kept)
                if range.endOnNext == true, range.resolvedDuration == nil { endsOnNext.append(events.count - 1) }
                continue
            }
            do {
                events.append(try InterstitialEvent(dateRange: range))
                if range.endOnNext == true, range.resolvedDuration == nil { endsOnNext.append(events.count - 1) }
            } catch {
                errors.append(error)
            }
        }
        if !endsOnNext.isEmpty {
            let starts = events.compactMap { event -> PlaylistDate? in
                if case .date(let date) = event.start { return date } else { return nil }
            }.sorted()
            for index in endsOnNext {
                guard case .date(let date) = events[index].start else { continue }
                // The earliest START-DATE after this one.
                var low = 0
                var high = starts.count
                while low < high {
                    let middle = (low + high) / 2
                    if date < starts[middle] { high = middle } else { low = middle + 1 }
                }
                if low < starts.count { events[index].duration = starts[low].timeIntervalSince(date) }
            }
        }
        return (events, errors)
    }

    /// The previous events a reload may keep: for each date range, the last previous event with its
    /// ID, kept when it was made from an equal range.
    ///
    /// Tags mostly keep their order across reloads, so the previous events are walked beside the
    /// ranges and matched in order (O(d)); only when more than a few previous events are left
    /// unmatched is a table by ID built, as a plain lookup would.
    private struct ReusedEvents {
        let previous: [InterstitialEvent]
        /// For each range, the index in `previous` of the event to keep; -1 for none. Empty when
        /// `table` is used instead.
        var matches: [Int] = []
        var table: [String: InterstitialEvent] = [:]

        /// How far ahead of the walk a match is looked for (events removed between two reloads).
        private static let window = 8
        /// How many previous events may stay unmatched before the table is used.
        private static let unmatchedLimit = 4

        init(previous: [InterstitialEvent], ranges: [DateRange]) {
            self.previous = previous
            guard !previous.isEmpty else { return }
            var matches = [Int](repeating: -1, count: ranges.count)
            var isMatched = [Bool](repeating: false, count: previous.count)
            var cursor = 0
            for (position, range) in ranges.enumerated() where range.isInterstitial {
                let id = range.id
                var candidate = cursor
                while candidate < min(cursor + Self.window, previous.count) {
                    let storage = previous[candidate].storage
                    if storage.values.identifier == id, let source = storage.values.sourceDateRange, source == range {
                        matches[position] = candidate
                        isMatched[candidate] = true
                        cursor = candidate + 1
                        break
                    }
                    candidate += 1
                }
            }
            // A lookup by ID takes the last previous event with the ID. A matched event can be
            // shadowed only by an unmatched one (matched ones carry the IDs of other ranges, and a
            // consolidated range's ID is unique), so those few are checked against every range.
            var unmatched: [Int] = []
            for index in previous.indices where !isMatched[index] && previous[index].storage.values.sourceDateRange != nil {
                unmatched.append(index)
                if unmatched.count > Self.unmatchedLimit {
                    table.reserveCapacity(previous.count)
                    for event in previous where event.storage.values.sourceDateRange != nil { table[event.identifier] = event }
                    return
                }
            }
            for index in unmatched {
                let id = previous[index].identifier
                for (position, range) in ranges.enumerated() where range.isInterstitial && range.id == id {
                    if matches[position] < index { matches[position] = index }
                }
            }
            // A shadowing event is kept only if it too was made from an equal range.
            for index in unmatched {
                let id = previous[index].identifier
                for (position, range) in ranges.enumerated() where matches[position] == index && range.id == id {
                    if previous[index].storage.values.sourceDateRange != range { matches[position] = -1 }
                }
            }
            self.matches = matches
        }

        /// The event to keep for the range at `position`, if any.
        func event(for range: DateRange, at position: Int) -> InterstitialEvent? {
            if !matches.isEmpty {
                let index = matches[position]
                return index >= 0 ? previous[index] : nil
            }
            guard !table.isEmpty, let kept = table[range.id], kept.storage.values.sourceDateRange == range else { return nil }
            return kept
        }
    }

    /// Whether two events share their storage: a reused event rather than an equal one made anew.
    package func isStored(like other: InterstitialEvent) -> Bool { storage === other.storage }

    /// The duration the break is expected to play before assets are known: DURATION (or END-DATE −
    /// START-DATE), else PLANNED-DURATION, capped by the playout limit; `nil` when unknown.
    public var statedDuration: MediaTime? {
        guard let base = duration ?? plannedDuration else { return playoutLimit }
        return playoutLimit.map { MediaTime.min($0, base) } ?? base
    }
}
