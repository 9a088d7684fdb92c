import MediaTime

/// A Media Playlist (RFC 8216bis §4.4.3, §4.4.4, §4.4.5): a list of media segments with the tags
/// that describe them.
///
/// A playlist parsed from text remembers that text: ``serialized()`` returns it byte for byte until
/// the playlist is edited, and a canonical rendering afterwards (or always, with
/// ``canonicalText()``).
///
///     let playlist = try MediaPlaylist(parsing: text)
///     playlist.segments.count                      // 3
///     playlist.duration                            // 18.018, exactly
///     playlist.serialized() == Array(text.utf8)    // true
public struct MediaPlaylist: Sendable, Hashable {
    /// `EXT-X-VERSION`.
    public var version: Int? { didSet { source = .none } }
    /// `EXT-X-INDEPENDENT-SEGMENTS`.
    public var isIndependentSegments: Bool { didSet { source = .none } }
    /// `EXT-X-START`.
    public var start: StartPoint? { didSet { source = .none } }
    /// `EXT-X-DEFINE` tags, in order.
    public var definitions: [VariableDefinition] { didSet { source = .none } }
    /// `EXT-X-TARGETDURATION`: the maximum segment duration, in whole seconds.
    public var targetDurationSeconds: Int { didSet { source = .none } }
    /// `EXT-X-MEDIA-SEQUENCE`: the media sequence number of the first segment (default 0).
    public var mediaSequence: Int { didSet { source = .none } }
    /// `EXT-X-DISCONTINUITY-SEQUENCE`: the discontinuity sequence number of the first segment.
    public var discontinuitySequence: Int { didSet { source = .none } }
    /// `EXT-X-PLAYLIST-TYPE`.
    public var playlistType: PlaylistType? { didSet { source = .none } }
    /// `EXT-X-I-FRAMES-ONLY`.
    public var isIFramesOnly: Bool { didSet { source = .none } }
    /// `EXT-X-PART-INF`.
    public var partInformation: PartialSegmentInformation? { didSet { source = .none } }
    /// `EXT-X-SERVER-CONTROL`.
    public var serverControl: ServerControl? { didSet { source = .none } }
    /// `EXT-X-SKIP`: present in a playlist delta update.
    public var skip: SkipInformation? { didSet { source = .none } }
    /// `EXT-X-ENDLIST`: no more segments will be added.
    public var hasEndList: Bool { didSet { source = .none } }
    /// The media segments, in order.
    public var segments: [MediaSegment] { didSet { source = .none } }
    /// `EXT-X-PART` tags after the last segment: the segment being produced (Low-Latency HLS).
    public var trailingParts: [PartialSegment] { didSet { source = .none } }
    /// `EXT-X-DATERANGE` tags after the last segment.
    public var trailingDateRanges: [DateRange] { didSet { source = .none } }
    /// Stitched-ad markers after the last segment.
    public var trailingAdMarkers: [AdMarker] { didSet { source = .none } }
    /// Unknown tags and comments after the last segment.
    public var trailingLines: [UnknownLine] { didSet { source = .none } }
    /// `EXT-X-PRELOAD-HINT` tags.
    public var preloadHints: [PreloadHint] { didSet { source = .none } }
    /// `EXT-X-RENDITION-REPORT` tags.
    public var renditionReports: [RenditionReport] { didSet { source = .none } }
    /// The text this playlist was parsed from, while it is unedited.
    public private(set) var source: PlaylistSource

    /// An empty playlist with the given target duration.
    public init(targetDurationSeconds: Int, segments: [MediaSegment] = []) {
        self.isIndependentSegments = false
        self.definitions = []
        self.targetDurationSeconds = targetDurationSeconds
        self.mediaSequence = 0
        self.discontinuitySequence = 0
        self.isIFramesOnly = false
        self.hasEndList = false
        self.segments = segments
        self.trailingParts = []
        self.trailingDateRanges = []
        self.trailingAdMarkers = []
        self.trailingLines = []
        self.preloadHints = []
        self.renditionReports = []
        self.source = .none
    }

    /// Attaches the parsed source (used by the parser only, after every property is set).
    mutating func attach(source: PlaylistSource) { self.source = source }

    /// The value of `EXT-X-PLAYLIST-TYPE`.
    public struct PlaylistType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The value as written.
        public var rawValue: String
        /// Creates a value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Segments may only be appended.
        public static let event = PlaylistType(rawValue: "EVENT")
        /// The playlist never changes.
        public static let vod = PlaylistType(rawValue: "VOD")
        /// The value.
        public var description: String { rawValue }
    }
}

extension MediaPlaylist {
    /// Every EXT-X-DATERANGE tag in document order (before each segment, then after the last).
    ///
    /// - Complexity: O(n) in the number of segments.
    public var dateRanges: [DateRange] {
        var result: [DateRange] = []
        for segment in segments where !segment.dateRanges.isEmpty {
            result.append(contentsOf: segment.dateRanges)
        }
        result.append(contentsOf: trailingDateRanges)
        return result
    }

    /// The date ranges with tags of the same ID consolidated (§4.4.5.1), in order of first
    /// appearance. A later tag that would change an attribute is left out (the validator reports it).
    ///
    /// - Complexity: O(n + d) for n segments and d date-range tags.
    public var consolidatedDateRanges: [DateRange] {
        var order: [String] = []
        var byID: [String: DateRange] = [:]
        for range in dateRanges {
            if let existing = byID[range.id] {
                if let merged = try? existing.merging(range) { byID[range.id] = merged }
            } else {
                order.append(range.id)
                byID[range.id] = range
            }
        }
        return order.compactMap { byID[$0] }
    }

    /// The sum of the segment durations, exactly.
    ///
    /// - Complexity: O(n).
    public var duration: MediaTime {
        var total = MediaTime.zero
        for segment in segments { total += segment.duration }
        return total
    }

    /// Each segment's start time from the start of the playlist, exactly.
    ///
    /// - Complexity: O(n).
    public var segmentStartTimes: [MediaTime] {
        var result: [MediaTime] = []
        result.reserveCapacity(segments.count)
        var time = MediaTime.zero
        for segment in segments {
            result.append(time)
            time += segment.duration
        }
        return result
    }

    /// The media sequence number of the segment at `index`. In a delta update EXT-X-MEDIA-SEQUENCE
    /// numbers the first skipped segment, so the skipped ones are counted too (§4.4.5.2).
    public func mediaSequenceNumber(ofSegmentAt index: Int) -> Int {
        mediaSequence + (skip?.skippedSegments ?? 0) + index
    }

    /// The discontinuity sequence number of each segment.
    ///
    /// - Complexity: O(n).
    public var discontinuitySequenceNumbers: [Int] {
        var number = discontinuitySequence
        return segments.map { segment in
            if segment.isDiscontinuity { number += 1 }
            return number
        }
    }

    /// The program date-time of every segment: the one written on it, else the previous segment's
    /// date plus its duration (§4.4.4.6); `nil` before the first written date or after a
    /// discontinuity that has none.
    ///
    /// - Complexity: O(n).
    public func programDateTimes() -> [PlaylistDate?] {
        var result: [PlaylistDate?] = []
        result.reserveCapacity(segments.count)
        var next: PlaylistDate?
        for segment in segments {
            if let written = segment.programDateTime {
                next = written
            } else if segment.isDiscontinuity {
                next = nil
            }
            result.append(next)
            next = next?.adding(segment.duration)
        }
        // Dates before the first written one can be derived backwards (§6.3.1 lets clients
        // extrapolate within a discontinuity-free run).
        if let firstWritten = segments.firstIndex(where: { $0.programDateTime != nil }), firstWritten > 0,
            !segments[1...firstWritten].contains(where: \.isDiscontinuity)
        {
            var date = segments[firstWritten].programDateTime!
            for index in stride(from: firstWritten - 1, through: 0, by: -1) {
                date = date.adding(-segments[index].duration)
                result[index] = date
            }
        }
        return result
    }

    /// Whether the playlist is live: no EXT-X-ENDLIST and not a VOD playlist type.
    public var isLive: Bool { !hasEndList && playlistType != .vod }
}
