/// A live stream in a channel list (S3.11).
public struct Channel: Sendable, Hashable, Identifiable {
    /// Unique in its list.
    public var id: String
    /// The name people see (on the loading screen, in now-playing information).
    public var title: String
    /// The multivariant or media playlist to play.
    public var url: String

    /// A channel.
    public init(id: String, title: String, url: String) {
        self.id = id
        self.title = title
        self.url = url
    }
}
