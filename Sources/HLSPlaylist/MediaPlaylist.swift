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
        forEachSegmentExtras { _, extras in
            if !extras.dateRanges.isEmpty { result.append(contentsOf: extras.dateRanges) }
        }
        result.append(contentsOf: trailingDateRanges)
        return result
    }

    /// The date ranges with tags of the same ID consolidated (§4.4.5.1), in order of first
    /// appearance. A later tag that would change an attribute adds its other attributes; the one it
    /// would change keeps its earlier value (``consolidatingDateRanges()`` names these conflicts,
    /// and the validator reports them).
    ///
    /// - Complexity: O(n + d + a) for n segments, d date-range tags and a attributes in them.
    public var consolidatedDateRanges: [DateRange] { consolidatingDateRanges().ranges }

    /// ``consolidatedDateRanges`` and, for every later tag that would change an attribute of an
    /// earlier one with its ID, the conflict (in tag order).
    ///
    /// - Complexity: O(n + d + a) for n segments, d date-range tags and a attributes in them.
    public func consolidatingDateRanges() -> (ranges: [DateRange], conflicts: [DateRangeConflict]) {
        var result: [DateRange] = []
        var indexByID: [String: Int] = [:]
        var mergers: [Int: DateRangeMerger] = [:]
        var conflicts: [DateRangeConflict] = []
        if let count = source.lines?.dateRanges.count {
            result.reserveCapacity(count)
            indexByID.reserveCapacity(count)
        }
        func add(_ range: DateRange) {
            // One hash per tag: most IDs are new, so claim the slot and give it back if it was taken.
            let id = range.id
            guard let index = indexByID.updateValue(result.count, forKey: id) else {
                result.append(range)
                return
            }
            indexByID[id] = index
            // A live playlist repeats its tags unchanged.
            if mergers[index] == nil, range == result[index] { return }
            let names = mergers[index, default: DateRangeMerger(result[index])].add(range)
            guard !names.isEmpty, let merger = mergers[index] else { return }
            let later = DateRangeMerger(range)
            for name in names {
                conflicts.append(DateRangeConflict(
                    id: id, attribute: name,
                    earlierValue: merger.earlierText(of: name) ?? "", laterValue: later.earlierText(of: name) ?? ""
                ))
            }
        }
        forEachSegmentExtras { _, extras in
            for range in extras.dateRanges { add(range) }
        }
        for range in trailingDateRanges { add(range) }
        for (index, merger) in mergers { result[index] = merger.range }
        return (result, conflicts)
    }

    /// The sum of the segment durations, exactly; ``MediaTime/positiveInfinity`` when the sum is
    /// too large for `MediaTime` (only absurd EXTINF values, such as 9223372036854775800, get there).
    ///
    /// - Complexity: O(n).
    public var duration: MediaTime {
        var total = MediaTime.zero
        segments.withUnsafeBufferPointer { buffer in
            for index in buffer.indices { total = Self.saturatingSum(total, buffer[index].duration) }
        }
        return total
    }

    /// `a + b`, or the infinity of `b`'s sign when the exact sum cannot be represented.
    private static func saturatingSum(_ a: MediaTime, _ b: MediaTime) -> MediaTime {
        a.addingReportingOverflow(b) ?? (b.isNegative ? .negativeInfinity : .positiveInfinity)
    }

    /// Each segment's start time from the start of the playlist, exactly (saturating as
    /// ``duration`` does).
    ///
    /// - Complexity: O(n).
    public var segmentStartTimes: [MediaTime] {
        var result: [MediaTime] = []
        result.reserveCapacity(segments.count)
        var time = MediaTime.zero
        segments.withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                result.append(time)
                time = Self.saturatingSum(time, buffer[index].duration)
            }
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
        // The previous segment's date and duration; the sum is taken only when a segment has no
        // date of its own (most live playlists date every segment).
        var previous: (date: PlaylistDate, duration: MediaTime)?
        segments.withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                let date: PlaylistDate?
                if let written = buffer[index].programDateTime {
                    date = written
                } else if buffer[index].isDiscontinuity {
                    date = nil
                } else {
                    date = previous.map { $0.date.adding($0.duration) }
                }
                result.append(date)
                previous = date.map { ($0, buffer[index].duration) }
            }
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

    /// Calls `body` with the index and the boxed rare fields of every segment that has any (date
    /// ranges, parts, markers, unknown lines, a title, a byte range or a map), skipping the rest
    /// without copying them.
    ///
    /// - Complexity: O(n), with no reference counting for segments that have no extras.
    func forEachSegmentExtras(_ body: (Int, SegmentExtras.Value) -> Void) {
        segments.withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                guard let box = buffer[index].extras.box else { continue }
                body(index, box.value)
            }
        }
    }

    /// Whether the playlist is live: no EXT-X-ENDLIST and not a VOD playlist type.
    public var isLive: Bool { !hasEndList && playlistType != .vod }
}
