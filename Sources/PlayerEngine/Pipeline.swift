import HLSInterstitials
import HLSPlaylist
import MediaProbe
import MediaTime

/// One stream being loaded: its playlists (a multivariant playlist's variants, the chosen media
/// playlist, live reloads), its segments ahead of a playhead, variant choice and failover. The
/// primary item has one; each interstitial asset gets its own while it plays.
struct Pipeline: Sendable {
    /// Whose pipeline: the stream it feeds in the playback backend.
    typealias Role = PlaybackStream

    struct Variant: Sendable, Hashable {
        var url: String
        var bandwidth: Int
        var failed = false
    }

    let role: Role
    let rootURL: String
    /// Variants sorted by bandwidth (empty when the root is a media playlist).
    var variants: [Variant] = []
    var selector: VariantSelector?
    var mediaURL: String?
    var playlist: MediaPlaylist?
    var timeline: PrimaryTimeline? {
        didSet { isReady = timeline != nil }
    }
    /// The playlist's stitched-ad ranges on `timeline`, kept with the playlist: a coordinator asks
    /// for them at every change of the item's timeline. A live reload continues them, so a break
    /// keeps its range as its segments leave the window.
    var stitchedAds: StitchedAds?
    var reloadPolicy = PlaylistReloadPolicy()
    var nextReload: Duration?
    var buffer: ForwardBuffer
    var playlistRequest: UInt64?
    var segmentRequest: UInt64?
    /// A segment fetch waiting for its retry time.
    var segmentRetryAt: Duration?
    var segmentAttempts = 0
    var initSections: [String: FragmentedMP4Probe.Initialization] = [:]
    var access: [AccessLogEntry] = []
    /// The playlist problems already reported as warnings.
    var reportedProblems: Set<String> = []
    /// Where a live timeline counts from (``PlayerItem/liveTimeOrigin``).
    var liveTimeOrigin: PlaylistDate?
    /// Whether the media playlist has been loaded once (the pipeline is ready). Kept, not
    /// computed: comparing the optional timeline with `nil` copies it, and this is asked at every
    /// input.
    private(set) var isReady = false

    init(role: Role, rootURL: String, forwardTarget: MediaTime) {
        self.role = role
        self.rootURL = rootURL
        self.buffer = ForwardBuffer(forwardTarget: forwardTarget)
    }

    var isLive: Bool { timeline?.isLive ?? false }

    var currentVariant: Int? { selector?.current }

    var indicatedBitrate: Int { selector.map { variants[$0.current].bandwidth } ?? 0 }

    /// Where the timeline ends when the playlist is complete; `nil` for live.
    var end: MediaTime? {
        // Through `timeline` in place (binding it would copy its arrays): asked at every input.
        guard timeline?.isLive == false else { return nil }
        return timeline?.end
    }

    /// Takes a multivariant playlist: its variants, sorted by bandwidth, and the first listed as
    /// the initial choice (RFC 8216bis §6.3.1: the first variant is the one to start with).
    mutating func adopt(multivariant: MultivariantPlaylist, url: String) -> Bool {
        let listed = multivariant.variants.map { Variant(url: URIResolution.resolve($0.uri, against: url), bandwidth: $0.stream.bandwidth) }
        guard !listed.isEmpty else { return false }
        let first = listed[0]
        variants = listed.enumerated().sorted { ($0.element.bandwidth, $0.offset) < ($1.element.bandwidth, $1.offset) }.map(\.element)
        let initial = variants.firstIndex(of: first) ?? 0
        selector = VariantSelector(bandwidths: variants.map(\.bandwidth), initial: initial)
        mediaURL = variants[initial].url
        return true
    }

    /// The next variant to fail over to: the best not-yet-failed variant below the current one,
    /// else above it.
    mutating func failover() -> Int? {
        guard var selector, !variants.isEmpty else { return nil }
        variants[selector.current].failed = true
        let below = variants.indices.filter { $0 < selector.current && !variants[$0].failed }.last
        let above = variants.indices.first { $0 > selector.current && !variants[$0].failed }
        guard let next = below ?? above else { return nil }
        selector.select(next)
        self.selector = selector
        mediaURL = variants[next].url
        return next
    }

    /// Adopts a (re)loaded media playlist, keeping times continuous for live; returns whether it
    /// changed.
    mutating func adopt(media: MediaPlaylist, url: String) -> Bool {
        let changed = playlist.map { $0.mediaSequence != media.mediaSequence || $0.segments.count != media.segments.count || $0.hasEndList != media.hasEndList || $0.dateRanges.count != media.dateRanges.count } ?? true
        if let previous = timeline {
            timeline = PrimaryTimeline(playlist: media, continuing: previous)
        } else {
            var fresh = PrimaryTimeline(playlist: media)
            if media.isLive, let origin = liveTimeOrigin, let index = fresh.segmentDates.firstIndex(where: { $0 != nil }), let date = fresh.segmentDates[index] {
                fresh = PrimaryTimeline(playlist: media, firstSegmentStart: date.timeIntervalSince(origin) - fresh.segmentStarts[index])
            }
            timeline = fresh
        }
        if changed || stitchedAds == nil, let timeline {
            stitchedAds = stitchedAds.map { StitchedAds(playlist: media, timeline: timeline, continuing: $0) }
                ?? StitchedAds(playlist: media, timeline: timeline)
        }
        playlist = media
        mediaURL = url
        return changed
    }

    /// Records a downloaded segment in the access log.
    mutating func logAccess(bytes: Int, elapsed: Duration) {
        let uri = mediaURL ?? rootURL
        if access.last?.uri != uri {
            access.append(AccessLogEntry(uri: uri, indicatedBitrate: indicatedBitrate))
        }
        access[access.count - 1].segmentsDownloaded += 1
        access[access.count - 1].bytesTransferred += bytes
        access[access.count - 1].transferDuration += elapsed
    }

    /// When the next segment should start loading for a playhead at `time` moving on `clock`: when
    /// the buffer ahead drops to the forward target (also when the playhead is already there, as
    /// after a resumption). `nil` while a load or a retry is pending, or when everything the
    /// playlist lists is loaded.
    func fetchDeadline(at time: MediaTime, bufferEnd: MediaTime, on clock: MediaClock) -> Duration? {
        guard segmentRequest == nil, segmentRetryAt == nil, let end = timeline?.end, bufferEnd < end else { return nil }
        let point = bufferEnd - buffer.forwardTarget
        guard !(point < time), let at = clock.hostTime(whenItemReaches: point) else { return nil }
        return at + .nanoseconds(1)
    }

    /// The segment to fetch next for a playhead at `time`, with its request.
    func nextFetch(at time: MediaTime) -> (index: Int, range: MediaTimeRange, request: ResourceRequest, mapURI: String?)? {
        // Through `timeline` and `playlist` in place (binding them would copy their arrays): this
        // is asked at every input, and mostly answers no.
        guard segmentRequest == nil, segmentRetryAt == nil, isReady, let mediaURL, let start = timeline?.start else { return nil }
        let from = MediaTime.max(time, start)
        guard let index = buffer.nextSegment(in: timeline!, at: from) else { return nil }
        let segment = playlist!.segments[index]
        let range = MediaTimeRange(start: timeline!.segmentStarts[index], duration: timeline!.segmentDurations[index])
        let url = URIResolution.resolve(String(segment.uri), against: mediaURL)
        var request = ResourceRequest(url: url)
        if let byteRange = segment.byteRange {
            request.byteRange = (byteRange.offset ?? Self.impliedOffset(playlist!, index), byteRange.length)
        }
        let mapURI = segment.map.map { URIResolution.resolve($0.uri, against: mediaURL) }
        return (index, range, request, mapURI)
    }

    /// The offset of a byte range that omits it: right after the previous segment's range.
    private static func impliedOffset(_ playlist: MediaPlaylist, _ index: Int) -> Int {
        guard index > 0, let previous = playlist.segments[index - 1].byteRange else { return 0 }
        return (previous.offset ?? impliedOffset(playlist, index - 1)) + previous.length
    }

    /// The real duration of a downloaded segment, compared with its EXTINF; a message when they
    /// disagree beyond `tolerance`, or when the media cannot be read.
    func durationCheck(of bytes: [UInt8], declared: MediaTime, mapURI: String?, tolerance: MediaTime) -> String? {
        let measured: MediaTime
        do {
            if let mapURI {
                guard let initialization = initSections[mapURI] else { return nil }
                measured = try FragmentedMP4Probe.duration(of: bytes, initialization: initialization)
            } else if bytes.first == 0x47 {
                measured = try TransportStreamProbe.duration(of: bytes)
            } else {
                return nil
            }
        } catch {
            return "cannot read the segment's media to check its duration: \(error)"
        }
        let check = DurationCheck(declared: declared, measured: measured, tolerance: tolerance)
        guard !check.isWithinTolerance else { return nil }
        return "EXTINF says \(declared.decimalString()) s but the media lasts \(measured.decimalString()) s"
    }
}
