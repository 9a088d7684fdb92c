import HLSInterstitials
import HLSPlaylist
import MediaTime
import Testing

/// An exact time from its decimal text: `time("12.5")` is `MediaTime(decimal: "12.5")!`.
func time(_ text: String) -> MediaTime {
    guard let value = MediaTime(decimal: text) else { preconditionFailure("not a decimal time: \(text)") }
    return value
}

/// `[start, end)` from decimal texts.
func range(_ start: String, _ end: String) -> MediaTimeRange {
    MediaTimeRange(start: time(start), end: time(end))
}

/// Playlists and tags for the tests, all dated from one program date-time so that a START-DATE is
/// written as "seconds after the first segment of a playlist dated from the epoch".
enum Fixture {
    /// The program date-time of offset 0.
    static let epochText = "2026-01-01T00:00:00.000Z"
    static let epoch = PlaylistDate(iso8601: epochText)!

    /// The date `offset` seconds after ``epoch``.
    static func date(_ offset: String) -> PlaylistDate { epoch.adding(time(offset)) }

    /// The ISO 8601 text of the date `offset` seconds after ``epoch``.
    static func dateText(_ offset: String) -> String { date(offset).iso8601String }

    /// An interstitial EXT-X-DATERANGE starting `offset` seconds after the epoch. Unless
    /// `attributes` names X-ASSET-LIST or X-ASSET-URI, the tag gets
    /// `X-ASSET-URI="https://ads.example.com/<id>.m3u8"`.
    static func interstitial(_ id: String, at offset: String, _ attributes: String = "") -> String {
        var line = "#EXT-X-DATERANGE:ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(dateText(offset))\""
        if !attributes.contains("X-ASSET-LIST") && !attributes.contains("X-ASSET-URI") {
            line += ",X-ASSET-URI=\"https://ads.example.com/\(id).m3u8\""
        }
        if !attributes.isEmpty { line += "," + attributes }
        return line
    }

    /// A media playlist: `segments` EXTINF durations (decimal texts), the first dated at
    /// `firstDate` seconds after the epoch (no EXT-X-PROGRAM-DATE-TIME when `nil`), `tags` placed
    /// before the first segment, `segmentTags[i]` before segment `i`, and EXT-X-ENDLIST unless
    /// `live`.
    static func playlistText(
        segments: [String] = Array(repeating: "6", count: 10),
        firstDate: String? = "0",
        mediaSequence: Int = 0,
        live: Bool = false,
        tags: [String] = [],
        segmentTags: [Int: [String]] = [:],
        trailingTags: [String] = []
    ) -> String {
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(targetDuration(segments))",
            "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)",
        ]
        if !live { lines.append("#EXT-X-PLAYLIST-TYPE:VOD") }
        if let firstDate { lines.append("#EXT-X-PROGRAM-DATE-TIME:\(dateText(firstDate))") }
        lines += tags
        for (index, duration) in segments.enumerated() {
            lines += segmentTags[index] ?? []
            lines.append("#EXTINF:\(duration),")
            lines.append("segment\(mediaSequence + index).ts")
        }
        lines += trailingTags
        if !live { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// ``playlistText(segments:firstDate:mediaSequence:live:tags:segmentTags:trailingTags:)``, parsed.
    static func playlist(
        segments: [String] = Array(repeating: "6", count: 10),
        firstDate: String? = "0",
        mediaSequence: Int = 0,
        live: Bool = false,
        tags: [String] = [],
        segmentTags: [Int: [String]] = [:],
        trailingTags: [String] = []
    ) throws -> MediaPlaylist {
        try MediaPlaylist(parsing: playlistText(
            segments: segments, firstDate: firstDate, mediaSequence: mediaSequence, live: live, tags: tags,
            segmentTags: segmentTags, trailingTags: trailingTags
        ))
    }

    /// The schedule of a playlist's interstitials.
    static func schedule(_ playlist: MediaPlaylist, options: InterstitialSchedule.Options = .init()) -> InterstitialSchedule {
        InterstitialSchedule(
            primary: PrimaryTimeline(playlist: playlist), events: InterstitialEvent.events(in: playlist).events, options: options
        )
    }

    /// The schedule of interstitial `tags` on a 60 s VOD of ten 6 s segments dated from the epoch.
    static func vodSchedule(_ tags: [String], options: InterstitialSchedule.Options = .init()) throws -> InterstitialSchedule {
        schedule(try playlist(tags: tags), options: options)
    }

    /// The single event of a one-tag playlist (a 60 s VOD dated from the epoch).
    static func event(_ line: String) throws -> InterstitialEvent {
        let result = InterstitialEvent.events(in: try playlist(tags: [line]))
        try #require(result.errors.isEmpty, "unexpected errors: \(result.errors)")
        return try #require(result.events.first)
    }

    /// The error a one-tag playlist's interstitial produces.
    static func eventError(_ line: String) throws -> InterstitialEventError {
        let result = InterstitialEvent.events(in: try playlist(tags: [line]))
        #expect(result.events.isEmpty)
        return try #require(result.errors.first)
    }

    /// An asset list decoded from JSON text.
    static func assetList(_ json: String) throws -> AssetList {
        try AssetList(json: Array(json.utf8))
    }

    private static func targetDuration(_ segments: [String]) -> Int {
        let longest = segments.map { time($0).seconds }.max() ?? 6
        return Int(longest.rounded(.up))
    }
}

/// A primary range, for comparing schedule items.
func primaryItem(_ start: String, _ end: String) -> InterstitialSchedule.Item {
    .primary(range(start, end))
}

extension InterstitialSchedule {
    /// Each item as `primary a–b` or `break id s→r`, for readable whole-schedule assertions.
    var outline: [String] {
        items.map { item in
            switch item {
            case .primary(let span): return "primary \(span.start)–\(span.end)"
            case .interstitial(let scheduled): return "break \(scheduled.id) \(scheduled.start)→\(scheduled.resumeTime)"
            }
        }
    }

    /// The reason an event is not scheduled, if it is not.
    func exclusionReason(_ id: String) -> ExclusionReason? {
        exclusions.first { $0.id == id }?.reason
    }
}
