/// The text a playlist was parsed from, kept so that an unedited playlist writes back byte for
/// byte, plus where each element came from, for located diagnostics.
///
/// It takes no part in equality: two playlists with the same content are equal whatever their
/// text.
public struct PlaylistSource: Sendable, Hashable {
    final class Storage: Sendable {
        let bytes: [UInt8]
        let lines: SourceLines
        init(bytes: [UInt8], lines: SourceLines) {
            self.bytes = bytes
            self.lines = lines
        }
    }

    let storage: Storage?

    static let none = PlaylistSource(storage: nil)

    init(storage: Storage?) { self.storage = storage }

    /// The original bytes, when the playlist was parsed and not edited since.
    public var bytes: [UInt8]? { storage?.bytes }

    /// Where each element of the playlist came from (1-based line numbers), when known.
    public var lines: SourceLines? { storage?.lines }

    /// Always equal: the source is not content.
    public static func == (lhs: PlaylistSource, rhs: PlaylistSource) -> Bool { true }
    /// Contributes nothing.
    public func hash(into hasher: inout Hasher) {}
}

/// 1-based line numbers of a parsed playlist's elements, in document order.
public struct SourceLines: Sendable {
    /// The URI line of each media segment.
    public var segments: [Int32] = []
    /// Each EXT-X-DATERANGE tag, in document order (as ``MediaPlaylist/dateRanges`` lists them).
    public var dateRanges: [Int32] = []
    /// The EXT-X-PROGRAM-DATE-TIME tag of each segment (0 where it has none), by segment index.
    public var programDateTimes: [Int32] = []
    /// Each EXT-X-STREAM-INF tag (multivariant playlists).
    public var variants: [Int32] = []
    /// Each EXT-X-MEDIA tag.
    public var renditions: [Int32] = []
    /// Each EXT-X-I-FRAME-STREAM-INF tag.
    public var iFrameStreams: [Int32] = []
    /// Each EXT-X-SESSION-DATA tag.
    public var sessionData: [Int32] = []
    /// The first line of each tag by name, for playlist-level diagnostics.
    public var firstTag: [String: Int32] = [:]
    /// Each tag line by name with every occurrence (only for tags that may appear once).
    public var tagOccurrences: [String: [Int32]] = [:]
    /// The total number of lines.
    public var lineCount: Int32 = 0
}
