import HLSInterstitials
import HLSPlaylist
import MediaTime

/// An exact time from its decimal text: `time("12.5")` is `MediaTime(decimal: "12.5")!`.
func time(_ text: String) -> MediaTime {
    guard let value = MediaTime(decimal: text) else { preconditionFailure("not a decimal time: \(text)") }
    return value
}

/// Integrated timelines for the tests: a 60 s VOD of ten 6 s segments dated from one program
/// date-time, with interstitial DATERANGE tags placed at offsets from it.
enum Timeline {
    static let epoch = PlaylistDate(iso8601: "2026-01-01T00:00:00.000Z")!

    /// An interstitial DATERANGE `offset` seconds after the epoch, with `attributes` appended.
    static func interstitial(_ id: String, at offset: String, _ attributes: String = "") -> String {
        var line = "#EXT-X-DATERANGE:ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\","
        line += "START-DATE=\"\(epoch.adding(time(offset)).iso8601String)\",X-ASSET-URI=\"https://ads.example.com/\(id).m3u8\""
        if !attributes.isEmpty { line += "," + attributes }
        return line
    }

    /// The schedule of `tags` on the 60 s VOD, or (`liveFrom`) on a live window of the same ten
    /// segments whose first starts at that primary time.
    static func schedule(_ tags: [String], liveFrom: MediaTime? = nil) throws -> InterstitialSchedule {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:6"]
        if liveFrom == nil { lines.append("#EXT-X-PLAYLIST-TYPE:VOD") }
        lines.append("#EXT-X-PROGRAM-DATE-TIME:\(epoch.iso8601String)")
        lines += tags
        for index in 0..<10 { lines += ["#EXTINF:6,", "segment\(index).ts"] }
        if liveFrom == nil { lines.append("#EXT-X-ENDLIST") }
        let playlist = try MediaPlaylist(parsing: lines.joined(separator: "\n") + "\n")
        return InterstitialSchedule(primary: PrimaryTimeline(playlist: playlist, firstSegmentStart: liveFrom ?? .zero),
                                    events: InterstitialEvent.events(in: playlist).events)
    }

    /// A snapshot of `tags` on the 60 s VOD with playback at `position` (the start by default).
    static func snapshot(_ tags: [String], at position: IntegratedTimeline.Position? = nil) throws -> IntegratedTimeline.Snapshot {
        IntegratedTimeline.Snapshot(schedule: try schedule(tags), position: position)
    }
}
