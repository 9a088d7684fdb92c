import HLSInterstitials
import MediaTime

/// One participant's correspondence between its own playback positions and the group's
/// coordinated timeline (MISSION S1.5, S1.8, S2.10).
///
/// The coordinated timeline is the shared primary content with every break that may differ
/// between participants taken out, and with every break whose content is the same for everyone
/// (`X-CONTENT-MAY-VARY=NO`) left in, since the whole group plays it in sync:
/// - a stitched-ad range on the item timeline is removed (content stands still while it plays),
///   unless the ads take the place of the content under them (``StitchedAdPlacement/replacing``,
///   live): coordinated time then stands at the range's start while it plays and is back in step
///   at its end, as after a live interstitial whose resumption offset is its duration (S1.9);
/// - an interstitial break whose content may vary is local: coordinated time stands still at its
///   start while the participant plays it, and its resumption offset only moves that participant;
/// - an interstitial break whose content may not vary occupies its duration on the coordinated
///   timeline, and primary content after it shifts by `duration − resumptionOffset`.
///
/// Stitched ranges are sums of EXTINF (S1.6). Every computation is exact.
public struct CoordinatedTimeMapping: Sendable, Hashable, Codable {
    /// How stitched ads sit in the item's content.
    public enum StitchedAdPlacement: String, Sendable, Hashable, Codable {
        /// Inserted: the content after an ad is the content before it, moved by the ad's length
        /// (VOD, S1.5). The ranges are removed from the coordinated timeline.
        case inserted
        /// In place of the content under them, as a live stream's ad slots are: the content after
        /// an ad is the live content of that moment, so a range occupies its own length of the
        /// coordinated timeline (and the participant is back in step with the group when it
        /// ends, without skipping anything more).
        case replacing
    }

    /// An interstitial break on the item's primary timeline.
    public struct Break: Sendable, Hashable, Codable {
        /// What is known of what a break plays.
        public enum Assets: Sendable, Hashable, Codable {
            /// Not known yet: its asset list is on its way.
            case pending
            /// Nothing: an empty asset list (a premium viewer's break) or one that failed.
            case empty
            /// Something to play.
            case present
        }

        /// The interstitial event's identifier (its DATERANGE ID).
        public var eventIdentifier: String
        /// Where primary is left for the break, on the item timeline.
        public var itemTime: MediaTime
        /// How long the break plays.
        public var duration: MediaTime
        /// How far primary has moved on when it resumes (the spec's X-RESUME-OFFSET; the duration
        /// when absent on live, 0 typically on VOD).
        public var resumptionOffset: MediaTime
        /// Whether participants may see different content in this break (`X-CONTENT-MAY-VARY`,
        /// default true). When false the group plays the break in sync (S2.10).
        public var contentMayVary: Bool
        /// What is known of its assets. A participant whose break is pending or empty is not
        /// playing an interstitial there (it is not suspended): it stands at the break's start
        /// until an asset starts, or goes on with primary.
        public var assets: Assets

        /// A break.
        public init(
            eventIdentifier: String,
            itemTime: MediaTime,
            duration: MediaTime,
            resumptionOffset: MediaTime = .zero,
            contentMayVary: Bool = true,
            assets: Assets = .present
        ) {
            self.eventIdentifier = eventIdentifier
            self.itemTime = itemTime
            self.duration = duration
            self.resumptionOffset = resumptionOffset
            self.contentMayVary = contentMayVary
            self.assets = assets
        }
    }

    /// A break the participant plays on its own: coordinated time stands still meanwhile.
    public struct LocalBreak: Sendable, Hashable {
        /// The stitched range on the item timeline, or the interstitial event's identifier.
        public enum Kind: Sendable, Hashable {
            /// A stitched ad range.
            case stitched(MediaTimeRange)
            /// An interstitial break whose content may vary.
            case interstitial(eventIdentifier: String)
        }

        /// Which break.
        public var kind: Kind
        /// The coordinated time that stands still during it (its start on the coordinated timeline).
        public var coordinatedTime: MediaTime
        /// How much of it is left to play from the position asked about.
        public var remaining: MediaTime
        /// Whether it has something to play: false for an interstitial whose assets are not known
        /// yet or that has none (see ``Break/assets``).
        public var hasContent: Bool = true
    }

    /// Ads stitched into the item (ranges on the item timeline), sorted and merged.
    public let stitchedAdRanges: [MediaTimeRange]
    /// How those ads sit in the content.
    public let stitchedAdPlacement: StitchedAdPlacement
    /// The item's duration (stitched ads included); `nil` for live.
    public let itemDuration: MediaTime?
    /// Interstitial breaks, ordered by item time.
    public let breaks: [Break]

    // Derived once: a mapping is read at every observation and message, and only ever replaced
    // whole.
    private let stitched: StitchedAds
    /// The breaks everyone plays in sync, with their start on the content timeline.
    private let sharedBreaks: [(content: MediaTime, break: Break)]
    /// The participant's local breaks as the group sees them: where each holds the coordinated
    /// timeline and for how long (for the ad-schedule message, S1.11).
    public private(set) var localBreakSchedule: [AdSchedule.Entry] = []
    /// The breaks the group plays in sync, by event identifier, with their durations (compared
    /// across participants: they must agree).
    public let sharedBreakDurations: [String: MediaTime]

    /// A mapping. Ranges are sorted and merged; breaks sorted by item time.
    public init(
        stitchedAdRanges: [MediaTimeRange] = [],
        stitchedAdPlacement: StitchedAdPlacement = .inserted,
        itemDuration: MediaTime? = nil,
        breaks: [Break] = []
    ) {
        let stitched = StitchedAds(ranges: stitchedAdRanges, itemDuration: itemDuration ?? .zero)
        let sorted = breaks.sorted { $0.itemTime < $1.itemTime }
        self.stitched = stitched
        self.stitchedAdRanges = stitched.ranges
        self.stitchedAdPlacement = stitchedAdPlacement
        self.itemDuration = itemDuration
        self.breaks = sorted
        let shared = sorted.filter { !$0.contentMayVary }
        sharedBreaks = shared.map { (Self.contentTime(forItemTime: $0.itemTime, stitched: stitched, placement: stitchedAdPlacement), $0) }
        sharedBreakDurations = Dictionary(shared.map { ($0.eventIdentifier, $0.duration) }) { first, _ in first }
        localBreakSchedule = makeLocalBreakSchedule()
    }

    /// The identity mapping: the whole item is primary content shared by the group.
    public static let identity = CoordinatedTimeMapping()

    /// The primary content's duration without stitched ads (what S1.7 requires to match across
    /// participants on VOD); `nil` for live.
    public var contentDuration: MediaTime? {
        guard let itemDuration else { return nil }
        return stitchedAdPlacement == .inserted ? stitched.contentDuration : itemDuration
    }

    /// The content time of an item time: with inserted ads, the item time less the ads before it;
    /// with ads that replace content, the item time. Inside an ad, that of the ad's start.
    private static func contentTime(forItemTime time: MediaTime, stitched: StitchedAds, placement: StitchedAdPlacement) -> MediaTime {
        switch placement {
        case .inserted: stitched.contentTime(forItemTime: time)
        case .replacing: stitched.range(containing: time)?.start ?? time
        }
    }

    private func contentTime(forItemTime time: MediaTime) -> MediaTime {
        Self.contentTime(forItemTime: time, stitched: stitched, placement: stitchedAdPlacement)
    }

    /// The coordinated time of a content time (item time with stitched ads removed).
    private func coordinatedTime(forContentTime content: MediaTime) -> MediaTime {
        var shift = MediaTime.zero
        for (start, shared) in sharedBreaks {
            if content < start { break }
            if content < start + shared.resumptionOffset {
                // Primary skipped by the break's resumption offset: it is where the break ends.
                return start + shift + shared.duration
            }
            shift += shared.duration - shared.resumptionOffset
        }
        return content + shift
    }

    /// The coordinated time of a position. Inside a stitched ad or a break whose content may vary,
    /// the coordinated time of its start (the group's content does not advance for this
    /// participant meanwhile).
    ///
    /// - Complexity: O(r + b) in the number of stitched ranges and breaks.
    public func coordinatedTime(for position: PlaybackPosition) -> MediaTime {
        switch position {
        case .item(let time):
            return coordinatedTime(forContentTime: contentTime(forItemTime: time))
        case .interstitial(let identifier, let offset):
            guard let found = breaks.first(where: { $0.eventIdentifier == identifier }) else {
                return coordinatedTime(forContentTime: .zero)
            }
            let start = coordinatedTime(forContentTime: contentTime(forItemTime: found.itemTime))
            guard !found.contentMayVary else { return start }
            // The shared break's start is where primary before it ends: map the instant before.
            let before = coordinatedStart(ofSharedBreak: found)
            return before + MediaTime.min(offset, found.duration)
        }
    }

    private func coordinatedStart(ofSharedBreak target: Break) -> MediaTime {
        var shift = MediaTime.zero
        let content = contentTime(forItemTime: target.itemTime)
        for (start, shared) in sharedBreaks {
            if shared == target { break }
            if content < start { break }
            shift += shared.duration - shared.resumptionOffset
        }
        return content + shift
    }

    /// The local position of a coordinated time.
    ///
    /// Where the participant has a local break exactly at that coordinated time, `afterLocalBreaks`
    /// chooses the position after it (the participant has played it already) or before it (the
    /// break plays next, which is how a seek into a stitched range lands on the range's start).
    ///
    /// - Complexity: O(r + b).
    public func position(forCoordinatedTime time: MediaTime, afterLocalBreaks: Bool = false) -> PlaybackPosition {
        var shift = MediaTime.zero
        for (start, shared) in sharedBreaks {
            let coordinatedStart = start + shift
            if time < coordinatedStart { break }
            if time < coordinatedStart + shared.duration {
                return .interstitial(eventIdentifier: shared.eventIdentifier, offset: time - coordinatedStart)
            }
            shift += shared.duration - shared.resumptionOffset
        }
        let content = time - shift
        var item = stitchedAdPlacement == .inserted ? stitched.itemTime(forContentTime: content) : content
        if afterLocalBreaks {
            // Skip stitched ranges that start exactly here (they may be adjacent).
            while let range = stitchedAdRanges.first(where: { $0.start == item }) { item = range.end }
        }
        return .item(item)
    }

    /// The first start or end of a stitched ad at or after an item time (after it, when `isStrict`):
    /// where a player playing forward from there next enters or leaves one. A range whose end is
    /// not known (an indefinite live break) has a start only.
    ///
    /// - Complexity: O(r) in the number of ranges.
    public func stitchedAdBoundary(from itemTime: MediaTime, isStrict: Bool = false) -> MediaTime? {
        func isAhead(_ boundary: MediaTime) -> Bool { isStrict ? itemTime < boundary : !(boundary < itemTime) }
        for range in stitchedAdRanges {
            if isAhead(range.start) { return range.start }
            let end = range.end
            if end.isNumeric, isAhead(end) { return end }
        }
        return nil
    }

    /// The local break at a position, if any: a stitched range containing an item time, or a break
    /// whose content may vary.
    public func localBreak(at position: PlaybackPosition) -> LocalBreak? {
        switch position {
        case .item(let time):
            guard let range = stitched.range(containing: time) else { return nil }
            return LocalBreak(
                kind: .stitched(range),
                coordinatedTime: coordinatedTime(for: position),
                remaining: range.end - time
            )
        case .interstitial(let identifier, let offset):
            guard let found = breaks.first(where: { $0.eventIdentifier == identifier }), found.contentMayVary else {
                return nil
            }
            return LocalBreak(
                kind: .interstitial(eventIdentifier: identifier),
                coordinatedTime: coordinatedTime(for: position),
                remaining: MediaTime.max(found.duration - offset, .zero),
                hasContent: found.assets == .present
            )
        }
    }

    private func makeLocalBreakSchedule() -> [AdSchedule.Entry] {
        var entries: [AdSchedule.Entry] = []
        for range in stitchedAdRanges {
            entries.append(
                AdSchedule.Entry(
                    coordinatedTime: coordinatedTime(for: .item(range.start)),
                    duration: range.duration,
                    source: .stitched
                )
            )
        }
        for local in breaks where local.contentMayVary {
            entries.append(
                AdSchedule.Entry(
                    coordinatedTime: coordinatedTime(for: .item(local.itemTime)),
                    duration: local.duration,
                    source: .interstitial(eventIdentifier: local.eventIdentifier)
                )
            )
        }
        return entries.sorted { $0.coordinatedTime < $1.coordinatedTime }
    }

    // Equality, hashing and coding are those of what the mapping is made from.

    public static func == (lhs: CoordinatedTimeMapping, rhs: CoordinatedTimeMapping) -> Bool {
        lhs.stitchedAdRanges == rhs.stitchedAdRanges && lhs.stitchedAdPlacement == rhs.stitchedAdPlacement && lhs.itemDuration == rhs.itemDuration
            && lhs.breaks == rhs.breaks
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(stitchedAdRanges)
        hasher.combine(stitchedAdPlacement)
        hasher.combine(itemDuration)
        hasher.combine(breaks)
    }

    private enum CodingKeys: String, CodingKey {
        case stitchedAdRanges, stitchedAdPlacement, itemDuration, breaks
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            stitchedAdRanges: try container.decode([MediaTimeRange].self, forKey: .stitchedAdRanges),
            stitchedAdPlacement: try container.decodeIfPresent(StitchedAdPlacement.self, forKey: .stitchedAdPlacement) ?? .inserted,
            itemDuration: try container.decodeIfPresent(MediaTime.self, forKey: .itemDuration),
            breaks: try container.decode([Break].self, forKey: .breaks)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stitchedAdRanges, forKey: .stitchedAdRanges)
        if stitchedAdPlacement != .inserted { try container.encode(stitchedAdPlacement, forKey: .stitchedAdPlacement) }
        try container.encodeIfPresent(itemDuration, forKey: .itemDuration)
        try container.encode(breaks, forKey: .breaks)
    }
}
