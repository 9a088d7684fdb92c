import HLSPlaylist
import MediaTime

/// When to reload a live media playlist (RFC 8216bis §6.3.4): after a reload that changed the
/// playlist, wait the target duration (measured from the start of the previous request); after one
/// that did not, wait half of it; a playlist with EXT-X-ENDLIST is not reloaded. For a
/// Low-Latency playlist that can block reloads, the part target is the interval.
public struct PlaylistReloadPolicy: Sendable, Hashable {
    /// What the last reload showed.
    public enum Outcome: Sendable, Hashable {
        /// The first load, or a reload whose playlist changed (new segments, tags or sequence).
        case changed
        /// A reload whose playlist was the same as before.
        case unchanged
    }

    /// Consecutive unchanged reloads after which the player should treat the stream as stalled
    /// (the spec asks a client to report an error when the playlist stops changing for a long time).
    public var unchangedLimit = 12

    private(set) var unchangedCount = 0

    /// A policy.
    public init() {}

    /// The wait before the next reload of `playlist`, or `nil` when it must not be reloaded (it
    /// ended). Counts unchanged reloads.
    public mutating func nextReloadDelay(for playlist: MediaPlaylist, after outcome: Outcome) -> Duration? {
        guard !playlist.hasEndList, playlist.playlistType != .vod else { return nil }
        switch outcome {
        case .changed: unchangedCount = 0
        case .unchanged: unchangedCount += 1
        }
        if let part = playlist.partInformation?.partTarget, playlist.serverControl?.canBlockReload == true {
            return Duration(rounding: part)
        }
        // A missing or unreadable EXT-X-TARGETDURATION (0 after a lenient parse) must not make the
        // player reload at once, forever.
        let target = Duration.seconds(max(1, playlist.targetDurationSeconds))
        return outcome == .changed ? target : target / 2
    }

    /// Whether the playlist has stopped changing for longer than the limit.
    public var hasStalled: Bool { unchangedCount >= unchangedLimit }

}
