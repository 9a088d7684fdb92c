/// What an item is, for people: the external metadata an app attaches to an item
/// (`AVPlayerItem.externalMetadata`) and publishes as now-playing information
/// (`MPNowPlayingInfoCenter`, MPRIS's `Metadata` on Linux) (S3.4). The info panel and the parental
/// check read it too.
public struct NowPlayingInfo: Sendable, Hashable {
    /// The title.
    public var title: String
    /// A second line (an episode, a programme), if any.
    public var subtitle: String?
    /// A longer description, if any.
    public var summary: String?
    /// Where the artwork is, if any.
    public var artworkURL: String?
    /// The content rating, if rated.
    public var contentRating: ContentRating?
    /// Whether the item is a live stream (no duration, no end).
    public var isLiveStream: Bool

    /// Now-playing information.
    public init(title: String, subtitle: String? = nil, summary: String? = nil, artworkURL: String? = nil,
                contentRating: ContentRating? = nil, isLiveStream: Bool = false) {
        self.title = title
        self.subtitle = subtitle
        self.summary = summary
        self.artworkURL = artworkURL
        self.contentRating = contentRating
        self.isLiveStream = isLiveStream
    }
}
