/// A Multivariant Playlist (RFC 8216bis §4.4.6): the variants and renditions of a presentation.
///
/// Like ``MediaPlaylist``, a parsed playlist writes back byte for byte until it is edited.
public struct MultivariantPlaylist: Sendable, Hashable {
    /// `EXT-X-VERSION`.
    public var version: Int? { didSet { source = .none } }
    /// `EXT-X-INDEPENDENT-SEGMENTS`.
    public var isIndependentSegments: Bool { didSet { source = .none } }
    /// `EXT-X-START`.
    public var start: StartPoint? { didSet { source = .none } }
    /// `EXT-X-DEFINE` tags, in order.
    public var definitions: [VariableDefinition] { didSet { source = .none } }
    /// `EXT-X-MEDIA` tags.
    public var renditions: [Rendition] { didSet { source = .none } }
    /// `EXT-X-STREAM-INF` tags with their URIs.
    public var variants: [VariantStream] { didSet { source = .none } }
    /// `EXT-X-I-FRAME-STREAM-INF` tags.
    public var iFrameStreams: [IFrameStream] { didSet { source = .none } }
    /// `EXT-X-SESSION-DATA` tags.
    public var sessionData: [SessionData] { didSet { source = .none } }
    /// `EXT-X-SESSION-KEY` tags.
    public var sessionKeys: [EncryptionKey] { didSet { source = .none } }
    /// `EXT-X-CONTENT-STEERING`.
    public var contentSteering: ContentSteering? { didSet { source = .none } }
    /// Unknown tags and comments, in order.
    public var otherLines: [UnknownLine] { didSet { source = .none } }
    /// The text this playlist was parsed from, while it is unedited.
    public private(set) var source: PlaylistSource

    /// An empty multivariant playlist.
    public init(variants: [VariantStream] = [], renditions: [Rendition] = []) {
        self.isIndependentSegments = false
        self.definitions = []
        self.renditions = renditions
        self.variants = variants
        self.iFrameStreams = []
        self.sessionData = []
        self.sessionKeys = []
        self.otherLines = []
        self.source = .none
    }

    mutating func attach(source: PlaylistSource) { self.source = source }

    /// The renditions of a group, in order.
    public func renditions(inGroup groupID: String, type: String) -> [Rendition] {
        renditions.filter { $0.groupID == groupID && $0.type == type }
    }
}

/// A parsed playlist of either kind.
public enum Playlist: Sendable, Hashable {
    /// A media playlist.
    case media(MediaPlaylist)
    /// A multivariant playlist.
    case multivariant(MultivariantPlaylist)

    /// The media playlist, if this is one.
    public var media: MediaPlaylist? {
        if case .media(let playlist) = self { return playlist }
        return nil
    }

    /// The multivariant playlist, if this is one.
    public var multivariant: MultivariantPlaylist? {
        if case .multivariant(let playlist) = self { return playlist }
        return nil
    }

    /// The playlist's text: the original bytes when unedited, else the canonical form.
    public func serialized() -> [UInt8] {
        switch self {
        case .media(let playlist): return playlist.serialized()
        case .multivariant(let playlist): return playlist.serialized()
        }
    }
}
