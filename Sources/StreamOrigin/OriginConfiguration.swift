import HLSPlaylist
import MediaTime

/// What an origin serves: its streams, the ads, the viewers and who gets which ads.
///
/// Read from a JSON file (``init(json:)``) or the embedded ``default``. Every key is optional
/// unless marked required; unknown keys are errors, so a typo cannot go unnoticed. Times are JSON
/// numbers of seconds, read exactly (`0.1` is one tenth). The `//` notes below explain the keys;
/// the file itself is plain JSON, without comments.
///
/// ```json
/// {
///   "content": {                        // the primary media, looped as long as a stream needs
///     "media": "content",               // folder of MPEG-TS segments under the media directory
///     "codecs": "avc1.42C00C,mp4a.40.2", "resolution": "320x180", "frameRate": 25
///   },
///   "programDateTime": "2026-01-01T00:00:00Z",   // date of a VOD stream's first segment
///   "ads": [ { "id": "spot-15s", "media": "ads/ad-15s" },         // required: id, media
///            { "id": "spot-7s", "media": "ads/ad-10s",
///              "durationSeconds": 7 } ],                              // cut from longer media
///   "viewers": [                                                  // required: id
///     { "id": "alice", "premium": true },                         // premium: no ads at all
///     { "id": "bob", "region": "US", "pod": ["spot-15s"] }        // pod: the ads of every break
///   ],
///   "streams": [                                                  // required: id, kind, mode
///     { "id": "movie", "kind": "vod", "mode": "interstitials",
///       "durationSeconds": 118,                                   // required for VOD
///       "segmentDurationSeconds": 4,                              // a multiple of the content's
///       "breaks": [ { "id": "mid-1", "positionSeconds": 40,       // required: id, positionSeconds
///                     "regions": ["DE"],                          // only viewers in these regions
///                     "pod": ["legal-warning"],                   // instead of each viewer's pod
///                     "dateRange": { "X-TIMELINE-OCCUPIES": "RANGE", "X-RESUME-OFFSET": 0 } } ] },
///     { "id": "channel", "kind": "live", "mode": "stitched",
///       "windowSeconds": 60, "deltaUpdates": true,                // required for live: windowSeconds
///       "startDate": "2026-01-01T00:00:00Z",                      // default: when the origin starts
///       "repeatingBreak": { "id": "ad", "firstAtSeconds": 20, "everySeconds": 60 } }
///   ]
/// }
/// ```
///
/// - `kind` is `vod` or `live`; `mode` is `interstitials` (one primary playlist with
///   `CLASS="com.apple.hls.interstitial"` date ranges whose X-ASSET-LIST asks the origin for the
///   viewer's ads) or `stitched` (the viewer's ads inserted between EXT-X-DISCONTINUITY tags, marked
///   with EXT-X-CUE-OUT / EXT-X-CUE-IN and an SCTE-35 date range).
/// - The segment duration is a multiple of the content segments' measured duration (4 s for the
///   bundled media). Break positions, a live stream's `firstAtSeconds` and `everySeconds` must be
///   multiples of the segment duration (ads are inserted between segments); a VOD break may also
///   sit at the stream's end.
/// - A VOD stream's `durationSeconds` may be any length that ends on a video keyframe of the
///   content (measured from the media: one every second in the bundled media): when it is not a
///   multiple of the segment duration, its last segment is shorter, cut from the content at that
///   keyframe, as real VODs end (118 s with 4 s segments: 29 segments of 4 s and one of 2 s).
/// - An ad's `durationSeconds` cuts it from longer media the same way (`spot-7s` is the first 7 s
///   of the 10-second ad: a 5 s segment and a 2 s one); its playlist and the DURATION of the asset
///   lists that name it say the cut length. It may not be longer than its media.
/// - A live stream's repeating break `id` is a prefix: its breaks are `ad-0`, `ad-1`, … at
///   `firstAtSeconds + k × everySeconds` from the stream's start.
/// - `dateRange` holds the EXT-X-DATERANGE attributes an author chooses, by their playlist names:
///   `DURATION`, `PLANNED-DURATION`, `CUE` (`"PRE"`, `"POST"`, `"ONCE"`, as a list or a
///   comma-separated string), `X-RESUME-OFFSET`, `X-PLAYOUT-LIMIT`, `X-SNAP`, `X-RESTRICT`,
///   `X-TIMELINE-OCCUPIES`, `X-TIMELINE-STYLE`, `X-CONTENT-MAY-VARY` (`"YES"`/`"NO"` or a boolean),
///   `X-SKIP-CONTROL-OFFSET`, `X-SKIP-CONTROL-DURATION`, `X-SKIP-CONTROL-LABEL-ID` and any other
///   `X-` client attribute (a string is written quoted, a number as a decimal). The origin writes
///   `ID`, `CLASS`, `START-DATE` and `X-ASSET-LIST` itself. Used in interstitials mode; stitched
///   streams write an SCTE-35 date range instead.
/// - Who gets what at a break: nothing for a premium viewer or a viewer outside the break's
///   `regions`; else the break's `pod` when it has one (content everyone in the audience sees,
///   such as a legal warning); else the viewer's own `pod`.
public struct OriginConfiguration: Sendable, Hashable {
    /// The primary content.
    public var content: Content
    /// The program date-time of a VOD stream's first segment (date ranges are placed by date).
    public var programDateTime: PlaylistDate
    /// The ads viewers can get.
    public var ads: [Ad]
    /// The viewers, each with the ads they get.
    public var viewers: [Viewer]
    /// The streams.
    public var streams: [Stream]

    /// A configuration.
    public init(content: Content, programDateTime: PlaylistDate, ads: [Ad], viewers: [Viewer], streams: [Stream]) {
        self.content = content
        self.programDateTime = programDateTime
        self.ads = ads
        self.viewers = viewers
        self.streams = streams
    }

    /// The primary content's media and how a multivariant playlist describes it.
    public struct Content: Sendable, Hashable {
        /// The folder of MPEG-TS segments, relative to the media directory.
        public var media: String
        /// `CODECS` of the variant.
        public var codecs: String?
        /// `RESOLUTION` of the variant, such as `320x180`.
        public var resolution: String?
        /// `FRAME-RATE` of the variant, as a decimal.
        public var frameRate: MediaTime?

        /// Content description.
        public init(media: String, codecs: String? = nil, resolution: String? = nil, frameRate: MediaTime? = nil) {
            self.media = media
            self.codecs = codecs
            self.resolution = resolution
            self.frameRate = frameRate
        }
    }

    /// An ad: an identifier used in URLs and pods, its media folder, and optionally how much of
    /// that media it lasts.
    public struct Ad: Sendable, Hashable, Identifiable {
        /// The identifier.
        public var id: String
        /// The folder of its MPEG-TS segments, relative to the media directory.
        public var media: String
        /// The ad's length when it is cut from longer media (ending on one of its keyframes);
        /// `nil` for the whole media.
        public var duration: MediaTime?

        /// An ad.
        public init(id: String, media: String, duration: MediaTime? = nil) {
            self.id = id
            self.media = media
            self.duration = duration
        }
    }

    /// A viewer: the identifier in playlist URLs selects the ad decisions.
    public struct Viewer: Sendable, Hashable, Identifiable {
        /// The identifier.
        public var id: String
        /// A premium viewer gets no ads at all.
        public var isPremium: Bool
        /// The viewer's region, for breaks limited to some regions.
        public var region: String?
        /// The ads this viewer gets at every break that has no pod of its own, in order.
        public var pod: [String]

        /// A viewer.
        public init(id: String, isPremium: Bool = false, region: String? = nil, pod: [String] = []) {
            self.id = id
            self.isPremium = isPremium
            self.region = region
            self.pod = pod
        }
    }

    /// How a stream carries its ads.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// HLS interstitials: date ranges with X-ASSET-LIST, decided per viewer when asked.
        case interstitials
        /// Server-side insertion: ad segments between discontinuities in the viewer's playlist.
        case stitched
    }

    /// Whether a stream is on demand or live.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A fixed-length presentation with EXT-X-ENDLIST.
        case vod
        /// A sliding window that advances with the wall clock.
        case live
    }

    /// Who gets which ads at a break.
    public struct Targeting: Sendable, Hashable {
        /// When set, only viewers in these regions get anything at the break.
        public var regions: [String]?
        /// When set, the ads everyone in the audience gets, instead of each viewer's pod.
        public var pod: [String]?

        /// Targeting.
        public init(regions: [String]? = nil, pod: [String]? = nil) {
            self.regions = regions
            self.pod = pod
        }
    }

    /// An ad break of a VOD stream.
    public struct Break: Sendable, Hashable, Identifiable {
        /// The identifier (the DATERANGE ID and the asset-list URL's last component).
        public var id: String
        /// Where the break sits in the content, from its start.
        public var position: MediaTime
        /// Who gets which ads.
        public var targeting: Targeting
        /// The authored EXT-X-DATERANGE attributes (its ID is empty; the origin sets it).
        public var dateRange: DateRange

        /// A break.
        public init(id: String, position: MediaTime, targeting: Targeting = Targeting(), dateRange: DateRange = DateRange(id: "")) {
            self.id = id
            self.position = position
            self.targeting = targeting
            self.dateRange = dateRange
        }
    }

    /// The breaks of a live stream: one every `interval`, from `first`.
    public struct RepeatingBreak: Sendable, Hashable {
        /// The prefix of the break identifiers: break `k` is `<prefix>-<k>`.
        public var idPrefix: String
        /// Where break 0 sits, from the stream's start.
        public var first: MediaTime
        /// The time from one break to the next.
        public var interval: MediaTime
        /// Who gets which ads.
        public var targeting: Targeting
        /// The authored EXT-X-DATERANGE attributes.
        public var dateRange: DateRange

        /// A repeating break.
        public init(idPrefix: String, first: MediaTime, interval: MediaTime, targeting: Targeting = Targeting(),
                    dateRange: DateRange = DateRange(id: "")) {
            self.idPrefix = idPrefix
            self.first = first
            self.interval = interval
            self.targeting = targeting
            self.dateRange = dateRange
        }

        /// The identifier of break `index`.
        public func id(ofBreak index: Int) -> String { "\(idPrefix)-\(index)" }

        /// The index of the break `id` names, if it is one of these breaks.
        public func index(ofBreak id: String) -> Int? {
            guard id.hasPrefix(idPrefix + "-"), let index = Int(id.dropFirst(idPrefix.count + 1)), index >= 0,
                id == self.id(ofBreak: index)
            else { return nil }
            return index
        }

        /// Where break `index` sits, from the stream's start.
        public func position(ofBreak index: Int) -> MediaTime { first + interval * Int64(index) }
    }

    /// A VOD stream's length and breaks.
    public struct VOD: Sendable, Hashable {
        /// The content length (the content loops to fill it).
        public var duration: MediaTime
        /// The breaks, in order of position.
        public var breaks: [Break]

        /// VOD timing.
        public init(duration: MediaTime, breaks: [Break] = []) {
            self.duration = duration
            self.breaks = breaks
        }
    }

    /// A live stream's window and breaks.
    public struct Live: Sendable, Hashable {
        /// How much of the stream a playlist holds, back from its live edge.
        public var window: MediaTime
        /// Whether the origin answers `_HLS_skip=YES` with a Playlist Delta Update.
        public var hasDeltaUpdates: Bool
        /// When the stream started; `nil` for the time the origin was started.
        public var startDate: PlaylistDate?
        /// The breaks, if any.
        public var repeatingBreak: RepeatingBreak?

        /// Live timing.
        public init(window: MediaTime, hasDeltaUpdates: Bool = false, startDate: PlaylistDate? = nil,
                    repeatingBreak: RepeatingBreak? = nil) {
            self.window = window
            self.hasDeltaUpdates = hasDeltaUpdates
            self.startDate = startDate
            self.repeatingBreak = repeatingBreak
        }
    }

    /// VOD or live, with what each needs.
    public enum Timing: Sendable, Hashable {
        /// On demand.
        case vod(VOD)
        /// Live.
        case live(Live)
    }

    /// A stream.
    public struct Stream: Sendable, Hashable, Identifiable {
        /// The identifier in URLs.
        public var id: String
        /// Interstitials or stitched.
        public var mode: Mode
        /// The segment duration; `nil` for the content segments' own.
        public var segmentDuration: MediaTime?
        /// VOD or live.
        public var timing: Timing

        /// A stream.
        public init(id: String, mode: Mode, segmentDuration: MediaTime? = nil, timing: Timing) {
            self.id = id
            self.mode = mode
            self.segmentDuration = segmentDuration
            self.timing = timing
        }

        /// VOD or live.
        public var kind: Kind {
            if case .vod = timing { return .vod }
            return .live
        }
    }

    /// The viewer with identifier `id`.
    public func viewer(id: String) -> Viewer? { viewers.first { $0.id == id } }

    /// The stream with identifier `id`.
    public func stream(id: String) -> Stream? { streams.first { $0.id == id } }
}
