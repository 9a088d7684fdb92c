/// An error read from a failed item, as a player view reports it: what kind of failure, and
/// whether playback can go on (a fatal error ends the item).
public struct PlaybackError: Error, Sendable, Hashable {
    /// What failed.
    public enum Kind: Sendable, Hashable {
        /// The media could not be fetched.
        case network
        /// The media was fetched but cannot be played (format, codec, a malformed playlist).
        case unsupportedContent
        /// Decoding or rendering failed.
        case decoding
        /// The media services went away under the player.
        case mediaServices
    }

    /// What failed.
    public var kind: Kind
    /// Whether the item cannot go on.
    public var isFatal: Bool

    /// An error.
    public init(kind: Kind, isFatal: Bool) {
        self.kind = kind
        self.isFatal = isFatal
    }
}
