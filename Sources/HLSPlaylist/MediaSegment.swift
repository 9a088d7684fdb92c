import MediaTime

/// A Media Segment (RFC 8216bis §3, §4.4.4): its URI line, its EXTINF duration, and the tags that
/// apply to it.
///
/// Tags that apply to a run of segments (EXT-X-KEY, EXT-X-MAP, EXT-X-BITRATE) are stored on each
/// segment as their effective value, so every segment is self-describing; the serializer writes a
/// tag only where the value changes. Tags that precede a segment without applying to it as such
/// (EXT-X-DATERANGE, ad markers, unknown tags, comments) are kept with the segment they precede, in
/// order of kind.
public struct MediaSegment: Sendable, Hashable {
    /// The URI line (variables substituted).
    public var uri: String
    /// `EXTINF` duration.
    public var duration: MediaTime
    /// `EXTINF` title (the text after the comma), if any.
    public var title: String?
    /// `EXT-X-BYTERANGE`: the sub-range of the resource (offset resolved when implicit is left `nil`).
    public var byteRange: ByteRange?
    /// `EXT-X-DISCONTINUITY` precedes this segment.
    public var isDiscontinuity: Bool
    /// `EXT-X-GAP`: the segment is missing.
    public var isGap: Bool
    /// `EXT-X-PROGRAM-DATE-TIME` given on this segment (only where the playlist wrote one; see
    /// ``MediaPlaylist/programDateTimes()`` for the dates of every segment).
    public var programDateTime: PlaylistDate?
    /// The effective `EXT-X-BITRATE` in kilobits per second.
    public var bitrateKbps: Int?
    /// The effective `EXT-X-KEY` tags (empty when unencrypted).
    public var keys: [EncryptionKey]
    /// The effective `EXT-X-MAP`.
    public var map: MediaInitializationSection?
    /// `EXT-X-PART` tags of this segment (Low-Latency HLS).
    public var parts: [PartialSegment]
    /// `EXT-X-DATERANGE` tags written before this segment.
    public var dateRanges: [DateRange]
    /// Stitched-ad markers written before this segment.
    public var adMarkers: [AdMarker]
    /// Unknown tags and comments written before this segment, in order.
    public var otherLines: [UnknownLine]

    /// A segment of `duration` at `uri`.
    public init(uri: String, duration: MediaTime, title: String? = nil) {
        self.uri = uri
        self.duration = duration
        self.title = title
        self.isDiscontinuity = false
        self.isGap = false
        self.keys = []
        self.parts = []
        self.dateRanges = []
        self.adMarkers = []
        self.otherLines = []
    }
}

/// A tag the model does not know, or a comment, kept verbatim.
public struct UnknownLine: Sendable, Hashable {
    /// The whole line, without its line terminator.
    public var text: String

    /// A line.
    public init(_ text: String) { self.text = text }

    /// Whether the line is a comment (a `#` line that is not an `#EXT` tag).
    public var isComment: Bool { !text.hasPrefix("#EXT") }

    /// The tag name (`EXT-X-FOO`), or `nil` for a comment.
    public var tagName: String? {
        guard !isComment else { return nil }
        let body = text.dropFirst()
        return String(body.prefix { $0 != ":" })
    }
}
