/// What the app says about the item playing, published as now-playing metadata (S3.4; Apple's
/// `MPNowPlayingInfoCenter.nowPlayingInfo`, MPRIS's `Metadata`).
public struct NowPlayingInfo: Sendable, Hashable {
    /// The title (`xesam:title`).
    public var title: String?
    /// Who made it (`xesam:artist`).
    public var artists: [String]
    /// The collection it belongs to, such as a series or a channel (`xesam:album`).
    public var album: String?
    /// The artwork's URL, `file://` or `http(s)://` (`mpris:artUrl`).
    public var artworkURL: String?
    /// The content rating, such as `PG-13` or `TV-MA` (`interlude:contentRating`).
    public var contentRating: String?

    public init(title: String? = nil, artists: [String] = [], album: String? = nil, artworkURL: String? = nil, contentRating: String? = nil) {
        self.title = title
        self.artists = artists
        self.album = album
        self.artworkURL = artworkURL
        self.contentRating = contentRating
    }
}
