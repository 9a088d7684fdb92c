/// What an item is, for people: the external metadata an app attaches to an item
/// (`AVPlayerItem.externalMetadata`) and publishes as now-playing information
/// (`MPNowPlayingInfoCenter`, MPRIS's `Metadata` on Linux: the `MPRIS` module maps each field to its
/// key) (S3.4). The info panel and the parental check read it too.
public struct NowPlayingInfo: Sendable, Hashable {
    /// The title (`xesam:title`).
    public var title: String
    /// A second line (an episode, a programme), if any.
    public var subtitle: String?
    /// Who made it (`xesam:artist`).
    public var artists: [String]
    /// The collection it belongs to, such as a series or a channel (`xesam:album`).
    public var album: String?
    /// A longer description, if any.
    public var summary: String?
    /// Where the artwork is, `file://` or `http(s)://`, if any (`mpris:artUrl`).
    public var artworkURL: String?
    /// The content rating, if rated (its label is `interlude:contentRating`).
    public var contentRating: ContentRating?
    /// Whether the item is a live stream (no duration, no end).
    public var isLiveStream: Bool

    /// Now-playing information.
    public init(title: String, subtitle: String? = nil, artists: [String] = [], album: String? = nil, summary: String? = nil,
                artworkURL: String? = nil, contentRating: ContentRating? = nil, isLiveStream: Bool = false) {
        self.title = title
        self.subtitle = subtitle
        self.artists = artists
        self.album = album
        self.summary = summary
        self.artworkURL = artworkURL
        self.contentRating = contentRating
        self.isLiveStream = isLiveStream
    }
}
