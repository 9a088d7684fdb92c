/// Why a channel did not load.
public enum ChannelLoadError: Error, Sendable, Hashable {
    /// The stream could not be fetched.
    case unreachable
    /// The stream was fetched but cannot be played.
    case unplayable
}
