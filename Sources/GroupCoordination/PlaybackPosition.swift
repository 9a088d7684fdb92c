import MediaTime

/// Where a participant's player is: on its item's own timeline, or inside an interstitial break
/// played from separate assets (HLS interstitials).
///
/// The item timeline includes the participant's stitched ads; ``CoordinatedTimeMapping`` turns a
/// position into the group's coordinated time and back.
public enum PlaybackPosition: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A time on the item's own timeline (stitched ads included).
    case item(MediaTime)
    /// An offset into the break of the interstitial event with this identifier.
    case interstitial(eventIdentifier: String, offset: MediaTime)

    /// `12.5` or `ad1+3`.
    public var description: String {
        switch self {
        case .item(let time): return time.description
        case .interstitial(let identifier, let offset): return "\(identifier)+\(offset)"
        }
    }
}
