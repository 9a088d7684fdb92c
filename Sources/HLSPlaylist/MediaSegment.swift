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
    ///
    /// A parsed segment keeps its URI as a slice of the playlist's text and makes the `String` when
    /// asked, so a 43,200-segment playlist parses without 43,200 string allocations.
    public var uri: String {
        get { uriStorage.string }
        set { uriStorage = .string(newValue) }
    }
    var uriStorage: SegmentURI
    /// `EXTINF` duration.
    public var duration: MediaTime
    /// `EXT-X-PROGRAM-DATE-TIME` given on this segment (only where the playlist wrote one; see
    /// ``MediaPlaylist/programDateTimes()`` for the dates of every segment).
    public var programDateTime: PlaylistDate?
    /// The effective `EXT-X-BITRATE` in kilobits per second.
    public var bitrateKbps: Int?
    /// The effective `EXT-X-KEY` tags (empty when unencrypted).
    public var keys: [EncryptionKey]
    /// `EXT-X-DISCONTINUITY` precedes this segment.
    public var isDiscontinuity: Bool
    /// `EXT-X-GAP`: the segment is missing.
    public var isGap: Bool
    /// Everything most segments do not have, boxed so that a plain segment stays small (a 24-hour
    /// DVR playlist holds 43,200 of them).
    var extras: SegmentExtras

    /// A segment of `duration` at `uri`.
    public init(uri: String, duration: MediaTime, title: String? = nil) {
        self.uriStorage = .string(uri)
        self.duration = duration
        self.isDiscontinuity = false
        self.isGap = false
        self.keys = []
        self.extras = SegmentExtras()
        if let title { self.title = title }
    }

    /// `EXTINF` title (the text after the comma), if any.
    public var title: String? {
        get { extras.box?.value.title }
        set { extras.modify { $0.title = newValue } }
    }
    /// `EXT-X-BYTERANGE`: the sub-range of the resource (an implicit offset stays `nil`).
    public var byteRange: ByteRange? {
        get { extras.box?.value.byteRange }
        set { extras.modify { $0.byteRange = newValue } }
    }
    /// The effective `EXT-X-MAP`.
    public var map: MediaInitializationSection? {
        get { extras.box?.value.map }
        set { extras.modify { $0.map = newValue } }
    }
    /// `EXT-X-PART` tags of this segment (Low-Latency HLS).
    public var parts: [PartialSegment] {
        get { extras.box?.value.parts ?? [] }
        set { extras.modify { $0.parts = newValue } }
    }
    /// `EXT-X-DATERANGE` tags written before this segment.
    public var dateRanges: [DateRange] {
        get { extras.box?.value.dateRanges ?? [] }
        set { extras.modify { $0.dateRanges = newValue } }
    }
    /// Stitched-ad markers written before this segment.
    public var adMarkers: [AdMarker] {
        get { extras.box?.value.adMarkers ?? [] }
        set { extras.modify { $0.adMarkers = newValue } }
    }
    /// Unknown tags and comments written before this segment, in order.
    public var otherLines: [UnknownLine] {
        get { extras.box?.value.otherLines ?? [] }
        set { extras.modify { $0.otherLines = newValue } }
    }
}

/// A segment URI: a `String`, or a slice of the text the playlist was parsed from.
enum SegmentURI: Sendable, Hashable {
    case string(String)
    case source(SharedBytes, offset: Int32, length: Int32)

    var string: String {
        switch self {
        case .string(let text):
            return text
        case .source(let bytes, let offset, let length):
            return bytes.array.withUnsafeBufferPointer { buffer in
                String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(offset)..<Int(offset + length)]), as: UTF8.self)
            }
        }
    }

    /// Equal when the URIs are the same text, however they are stored.
    static func == (lhs: SegmentURI, rhs: SegmentURI) -> Bool {
        if case .source(let a, let offsetA, let lengthA) = lhs, case .source(let b, let offsetB, let lengthB) = rhs, a === b,
            offsetA == offsetB, lengthA == lengthB
        {
            return true
        }
        return lhs.string == rhs.string
    }

    func hash(into hasher: inout Hasher) { hasher.combine(string) }
}

/// Immutable bytes shared by reference (the text a playlist was parsed from).
final class SharedBytes: Sendable {
    let array: [UInt8]
    init(_ array: [UInt8]) { self.array = array }
}

/// The rarely used parts of a ``MediaSegment``, behind a copy-on-write box.
struct SegmentExtras: Sendable, Hashable {
    struct Value: Sendable, Hashable {
        var title: String?
        var byteRange: ByteRange?
        var map: MediaInitializationSection?
        var parts: [PartialSegment] = []
        var dateRanges: [DateRange] = []
        var adMarkers: [AdMarker] = []
        var otherLines: [UnknownLine] = []
    }

    final class Box: @unchecked Sendable {
        // Mutated only through `modify`, which copies first unless the box is uniquely referenced.
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private(set) var box: Box?

    /// Mutates the value, creating the box or copying it first when it is shared.
    mutating func modify<Result>(_ body: (inout Value) -> Result) -> Result {
        if box == nil {
            box = Box(Value())
        } else if !isKnownUniquelyReferenced(&box) {
            box = Box(box!.value)
        }
        return body(&box!.value)
    }

    static func == (lhs: SegmentExtras, rhs: SegmentExtras) -> Bool {
        if lhs.box === rhs.box { return true }
        return (lhs.box?.value ?? Value()) == (rhs.box?.value ?? Value())
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(box?.value ?? Value())
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
