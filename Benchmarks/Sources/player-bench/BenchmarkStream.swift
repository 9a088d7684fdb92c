internal import MediaTime
internal import PlayerEngine

/// The benchmark's stream: a two-hour VOD made of the fixture content segments repeated, with 40
/// interstitial breaks (a pre-roll, 38 mid-rolls and a post-roll; half X-ASSET-URI, half
/// X-ASSET-LIST asset lists of one or two ads; primary resumes where it left off), every playlist
/// and asset list it needs, and what a player that plays it to the end must have loaded and played.
///
/// Every EXTINF is the fixture segment's duration as ``FixtureMedia`` measured it, so the
/// engine's duration check finds nothing to warn about. The same resources are served from memory
/// to the players (``serve(on:origin:)``) and written as files for the peer (``write(to:)``).
///
///     main.m3u8                  1,800 segments, PROGRAM-DATE-TIME, 40 interstitial DATERANGEs
///     content/seg-0000.ts …      the fixture content segments, round and round
///     ads/ad-15s/index.m3u8      one playlist per fixture ad, its segments beside it
///     ads/list-02.json …         the asset lists
struct BenchmarkStream {
    /// One resource of the stream.
    struct Resource {
        /// Its path below the stream's root.
        var path: String
        /// Its bytes (a fixture's are shared, not copied).
        var bytes: [UInt8]
        /// For a media segment, the fixture file it is (below the fixtures folder).
        var fixturePath: String?
    }

    /// One interstitial break.
    struct Break {
        /// The DATERANGE ID.
        var id: String
        /// The ads it plays, in order.
        var ads: [FixtureMedia.Ad]
        /// Whether it names its ads through an X-ASSET-LIST (else X-ASSET-URI, one ad).
        var usesAssetList: Bool
    }

    /// The primary playlist's path.
    static let playlistPath = "main.m3u8"
    /// The date of the primary's first segment (its EXT-X-PROGRAM-DATE-TIME).
    static let programDate = "2026-01-01T00:00:00.000Z"

    /// Every resource: the playlists and asset lists, then the segments.
    private(set) var resources: [Resource] = []
    /// The breaks in playback order (pre-roll first, post-roll last).
    private(set) var breaks: [Break] = []
    /// The primary's segments.
    let contentSegmentCount: Int
    /// The primary's duration (sum of its EXTINF values).
    private(set) var contentDuration = MediaTime.zero
    /// The seconds between mid-rolls.
    let midRollSpacingSeconds: Int

    /// Segments the breaks play, all together (one asset may play in several breaks).
    var adSegmentCount: Int { breaks.reduce(0) { $0 + $1.ads.reduce(0) { $0 + $1.segments.count } } }
    /// The breaks' duration, all together.
    var adDuration: MediaTime { breaks.reduce(.zero) { $0 + $1.ads.reduce(.zero) { $0 + $1.duration } } }
    /// Bytes of every playlist and asset list.
    var textBytes: Int { resources.filter { $0.fixturePath == nil }.reduce(0) { $0 + $1.bytes.count } }

    /// The stream made of `fixtures`: `segmentCount` primary segments (the fixture content
    /// repeated) and `midRolls` mid-rolls spread evenly, plus a pre-roll and a post-roll.
    init(fixtures: FixtureMedia, segmentCount: Int = 1800, midRolls: Int = 38) {
        contentSegmentCount = segmentCount
        let content = (0..<segmentCount).map { fixtures.content[$0 % fixtures.content.count] }
        contentDuration = content.reduce(.zero) { $0 + $1.duration }
        let contentSeconds = Int(contentDuration.seconds)
        midRollSpacingSeconds = contentSeconds / (midRolls + 1)

        let ads = fixtures.ads
        breaks.append(Break(id: "pre", ads: [ads[1]], usesAssetList: false))
        for number in 1...max(1, midRolls) where midRolls > 0 {
            // Odd mid-rolls name one ad with X-ASSET-URI; even ones fetch an asset list of one
            // ad (2, 6, 10, …) or two (4, 8, 12, …).
            let first = (number / 4) % ads.count
            if number % 2 == 1 {
                breaks.append(Break(id: Self.midRollID(number), ads: [ads[(number / 2) % ads.count]], usesAssetList: false))
            } else if number % 4 == 2 {
                breaks.append(Break(id: Self.midRollID(number), ads: [ads[first]], usesAssetList: true))
            } else {
                breaks.append(Break(id: Self.midRollID(number), ads: [ads[first], ads[(first + 1) % ads.count]], usesAssetList: true))
            }
        }
        breaks.append(Break(id: "post", ads: [ads[2], ads[0]], usesAssetList: true))

        var playlist = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:\(Self.targetDuration(content))\n"
        playlist += "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-PROGRAM-DATE-TIME:\(Self.programDate)\n"
        for (index, scheduled) in breaks.enumerated() {
            let seconds = scheduled.id == "pre" || scheduled.id == "post" ? 0 : index * midRollSpacingSeconds
            var line = "#EXT-X-DATERANGE:ID=\"\(scheduled.id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(Self.date(seconds))\""
            if scheduled.id == "pre" { line += ",CUE=\"PRE\"" }
            if scheduled.id == "post" { line += ",CUE=\"POST\"" }
            // Ads inserted into a VOD: primary resumes where it left off (without the attribute a
            // playlist event's resumption offset is the break's duration, once that is known).
            if scheduled.id != "post" { line += ",X-RESUME-OFFSET=0" }
            if scheduled.usesAssetList {
                let listPath = "ads/list-\(scheduled.id).json"
                line += ",X-ASSET-LIST=\"\(listPath)\""
                let assets = scheduled.ads.map { "{\"URI\":\"\($0.name)/index.m3u8\",\"DURATION\":\($0.duration.fixedDecimalString(digits: 6))}" }
                resources.append(Resource(path: listPath, bytes: Array("{\"ASSETS\":[\(assets.joined(separator: ","))]}".utf8)))
            } else {
                line += ",X-ASSET-URI=\"ads/\(scheduled.ads[0].name)/index.m3u8\""
            }
            playlist += line + "\n"
        }
        var segments: [Resource] = []
        for (index, segment) in content.enumerated() {
            let number = String(index)
            let path = "content/seg-" + String(repeating: "0", count: max(0, 4 - number.count)) + number + ".ts"
            playlist += "#EXTINF:\(segment.duration.fixedDecimalString(digits: 6)),\n\(path)\n"
            segments.append(Resource(path: path, bytes: segment.bytes, fixturePath: segment.path))
        }
        playlist += "#EXT-X-ENDLIST\n"
        resources.insert(Resource(path: Self.playlistPath, bytes: Array(playlist.utf8)), at: 0)

        for ad in ads {
            var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(Self.targetDuration(ad.segments))\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            for segment in ad.segments {
                let name = String(segment.path.split(separator: "/").last ?? "")
                text += "#EXTINF:\(segment.duration.fixedDecimalString(digits: 6)),\n\(name)\n"
                segments.append(Resource(path: "ads/\(ad.name)/\(name)", bytes: segment.bytes, fixturePath: segment.path))
            }
            resources.append(Resource(path: "ads/\(ad.name)/index.m3u8", bytes: Array((text + "#EXT-X-ENDLIST\n").utf8)))
        }
        resources += segments
    }

    /// Serves every resource at `origin` + its path.
    func serve<C: Clock>(on loader: MemoryResourceLoader<C>, origin: String) where C.Duration == Duration {
        for resource in resources { loader.set(origin + resource.path, resource.bytes) }
    }

    /// Writes the stream into `directory`: playlists and asset lists as files, segments as
    /// symbolic links to the fixture files in `fixturesDirectory`.
    func write(to directory: String, fixturesDirectory: String) throws(MediaFile.Failure) {
        let root = MediaFile.absolute(directory)
        for folder in ["content", "ads"] + Set(resources.compactMap { $0.path.hasPrefix("ads/ad-") ? String($0.path.split(separator: "/")[1]) : nil }).sorted().map({ "ads/" + $0 }) {
            try MediaFile.makeDirectories(root + "/" + folder)
        }
        for resource in resources {
            if let fixture = resource.fixturePath {
                try MediaFile.link(root + "/" + resource.path, to: fixturesDirectory + "/" + fixture)
            } else {
                try MediaFile.write(resource.bytes, to: root + "/" + resource.path)
            }
        }
    }

    /// `mid-07`.
    private static func midRollID(_ number: Int) -> String { number < 10 ? "mid-0\(number)" : "mid-\(number)" }

    /// The smallest EXT-X-TARGETDURATION for `segments`: their longest EXTINF, rounded.
    private static func targetDuration(_ segments: [FixtureMedia.Segment]) -> Int {
        segments.map { Int($0.duration.seconds.rounded()) }.max() ?? 1
    }

    /// The program date `seconds` after ``programDate`` (less than a day).
    private static func date(_ seconds: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "2026-01-01T\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60)).000Z"
    }
}
