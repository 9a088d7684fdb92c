/// The `Metadata` property of `org.mpris.MediaPlayer2.Player`: the current track (the player's
/// item) described with the MPRIS and xesam keys, and Interlude's own under `interlude:`.
///
/// Interlude's keys:
/// - `interlude:contentRating` (s): the item's content rating, from ``NowPlayingInfo``;
/// - `interlude:isLive` (b): whether the item is a live stream (it then has no `mpris:length`);
/// - `interlude:interstitialEvent` (s): the identifier of the interstitial event whose break
///   plays now, present only during a break.
public struct MPRISMetadata: Sendable, Hashable {
    /// One key of the dictionary.
    public struct Entry: Sendable, Hashable {
        public var key: String
        public var value: MPRISValue

        public init(_ key: String, _ value: MPRISValue) {
            self.key = key
            self.value = value
        }
    }

    /// The track ID clients pass back to `SetPosition` (`mpris:trackid`, an object path); it
    /// changes when the item does.
    public var trackID: String
    /// The length of the item's integrated timeline in microseconds (`mpris:length`): primary
    /// content and every break that fills time on it; `nil` for live or until known.
    public var lengthMicroseconds: Int64?
    /// `xesam:title`.
    public var title: String?
    /// `xesam:artist`.
    public var artists: [String] = []
    /// `xesam:album`.
    public var album: String?
    /// `mpris:artUrl`.
    public var artworkURL: String?
    /// The item's URL (`xesam:url`).
    public var url: String?
    /// `interlude:contentRating`.
    public var contentRating: String?
    /// `interlude:isLive`.
    public var isLive = false
    /// `interlude:interstitialEvent`.
    public var interstitialEventID: String?

    /// The object path the MPRIS specification reserves for "no track".
    public static let noTrackID = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    /// Metadata with no track.
    public static let noTrack = MPRISMetadata(trackID: noTrackID)

    public init(trackID: String) {
        self.trackID = trackID
    }

    /// The entries of the dictionary, the keys absent whose value is unknown.
    public var entries: [Entry] {
        var entries = [Entry("mpris:trackid", .objectPath(trackID))]
        guard trackID != Self.noTrackID else { return entries }
        if let lengthMicroseconds { entries.append(Entry("mpris:length", .int64(lengthMicroseconds))) }
        if let title { entries.append(Entry("xesam:title", .string(title))) }
        if !artists.isEmpty { entries.append(Entry("xesam:artist", .strings(artists))) }
        if let album { entries.append(Entry("xesam:album", .string(album))) }
        if let artworkURL { entries.append(Entry("mpris:artUrl", .string(artworkURL))) }
        if let url { entries.append(Entry("xesam:url", .string(url))) }
        if let contentRating { entries.append(Entry("interlude:contentRating", .string(contentRating))) }
        entries.append(Entry("interlude:isLive", .boolean(isLive)))
        if let interstitialEventID { entries.append(Entry("interlude:interstitialEvent", .string(interstitialEventID))) }
        return entries
    }
}
