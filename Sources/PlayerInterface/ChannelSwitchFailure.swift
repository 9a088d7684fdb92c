/// Why a channel request failed.
public enum ChannelSwitchFailure: Error, Sendable, Hashable {
    /// A later request replaced it before it finished.
    case superseded
    /// The channel did not load.
    case loadFailed(ChannelLoadError)
    /// The channel did not load within the machine's timeout.
    case timedOut
    /// The view went away first.
    case cancelled
    /// The list is empty.
    case noChannels
    /// The index is not in the list.
    case noSuchChannel
}
