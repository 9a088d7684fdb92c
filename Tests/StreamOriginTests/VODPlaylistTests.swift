import HLSInterstitials
import HLSPlaylist
import MediaTime
import StreamOrigin
import Testing

@Suite("VOD playlists")
struct VODPlaylistTests {
    static let viewers = ["alice", "bob", "charlie", "dana"]

    @Test("every VOD playlist of every viewer, in both modes, passes the validator with no errors and no warnings",
          arguments: ["movie", "movie-stitched"], viewers)
    func validates(stream: String, viewer: String) throws {
        let origin = try defaultOrigin()
        for name in ["main.m3u8", "multivariant.m3u8"] {
            let response = origin.get("/vod/\(stream)/\(viewer)/\(name)")
            #expect(response.status == 200)
            #expect(response.contentType == "application/vnd.apple.mpegurl")
            let diagnostics = PlaylistValidator.validate(response.body)
            #expect(diagnostics.isEmpty, "\(stream)/\(viewer)/\(name): \(diagnostics.map { "\($0)" })")
        }
    }

    @Test("interstitials mode: one primary playlist for everyone, 120 s of content, a date range per break asking for this viewer's ads",
          arguments: viewers)
    func interstitials(viewer: String) throws {
        let origin = try defaultOrigin()
        let playlist = try origin.servedMediaPlaylist("/vod/movie/\(viewer)/main.m3u8")
        #expect(playlist.duration == seconds(120))
        #expect(playlist.segments.count == 30)
        #expect(!playlist.segments.contains { $0.isDiscontinuity }, "the content loops with continuous time stamps")
        #expect(playlist.segments.map(\.uri) == (0..<30).map { "/media/content/\($0).ts" })
        #expect(playlist.hasEndList && playlist.playlistType == .vod)

        let (events, errors) = InterstitialEvent.events(in: playlist)
        #expect(errors.isEmpty)
        #expect(events.map(\.identifier) == ["legal", "mid-1", "mid-2"])
        #expect(events.map(\.assetListURI) == ["legal", "mid-1", "mid-2"].map { "/ads/movie/\(viewer)/\($0).json?_HLS_interstitial_id=\($0)" })
        #expect(events[0].cue == .join)
        #expect(events[0].willPlayOnce)
        #expect(events[0].restrictions == [.constrainsSeekingForwardInPrimaryContent, .requiresPlaybackAtPreferredRateForAdvancement])
        #expect(events[1].timelineOccupancy == .fill)
        #expect(events[2].timelineOccupancy == .singlePoint)
        #expect(events.allSatisfy { $0.resumptionOffset == .zero })
        #expect(events[2].playoutLimit == seconds(30))

        // The schedule a client builds once it has this viewer's asset lists.
        var lists: [String: InterstitialSchedule.AssetListState] = [:]
        for event in events {
            let response = origin.get("/ads/movie/\(viewer)/\(event.identifier).json")
            lists[event.identifier] = .resolved(try AssetList(json: response.body))
        }
        let schedule = InterstitialSchedule(primary: PrimaryTimeline(playlist: playlist), events: events,
                                            options: InterstitialSchedule.Options(assetLists: lists))
        let expected = AdDecisionEngineTests.expected.filter { $0.0 == viewer }
        for (_, breakID, ads) in expected {
            let scheduled = try #require(schedule.scheduledBreak(id: breakID))
            #expect(scheduled.start == seconds(["legal": 0, "mid-1": 40, "mid-2": 80][breakID]!))
            #expect(scheduled.playoutDuration == seconds(ads.reduce(0) { $0 + $1.2 }))
            #expect(scheduled.resumeTime == scheduled.start, "X-RESUME-OFFSET=0: primary resumes where it left off")
        }
    }

    @Test("interstitials mode: every viewer's primary segments are identical (the primary content must match, S1.8)")
    func samePrimaryForEveryone() throws {
        let origin = try defaultOrigin()
        let playlists = try Self.viewers.map { try origin.servedMediaPlaylist("/vod/movie/\($0)/main.m3u8") }
        for playlist in playlists.dropFirst() {
            #expect(playlist.segments.map(\.uri) == playlists[0].segments.map(\.uri))
            #expect(playlist.segments.map(\.duration) == playlists[0].segments.map(\.duration))
            #expect(playlist.programDateTimes() == playlists[0].programDateTimes())
        }
    }

    /// The stitched-ad ranges (item time, seconds) each viewer's playlist must have, and its length.
    static let stitched: [(String, [(Int64, Int64)], Int64)] = [
        ("alice", [], 120),
        ("bob", [(40, 55), (95, 110)], 150),
        ("charlie", [(40, 70), (110, 140)], 180),
        ("dana", [(0, 5)], 125),
    ]

    @Test("stitched mode: the CUE-OUT ranges StitchedAds reads are exactly the viewer's pods, and the content stays 120 s (S1.5, S1.7)",
          arguments: stitched)
    func stitchedRanges(viewer: String, ranges: [(Int64, Int64)], length: Int64) throws {
        let origin = try defaultOrigin()
        let playlist = try origin.servedMediaPlaylist("/vod/movie-stitched/\(viewer)/main.m3u8")
        let ads = StitchedAds(playlist: playlist)
        #expect(ads.ranges == ranges.map { MediaTimeRange(start: seconds($0.0), end: seconds($0.1)) })
        #expect(ads.itemDuration == seconds(length))
        #expect(ads.contentDuration == seconds(120))
        // Every pod is fenced by discontinuities (none before a pod that starts the stream) and announced by SCTE-35.
        let discontinuities = playlist.segments.filter(\.isDiscontinuity).count
        #expect(discontinuities == ranges.count * 2 - (ranges.first?.0 == 0 ? 1 : 0))
        let splices = playlist.dateRanges
        #expect(splices.count == ranges.count)
        let dates = playlist.programDateTimes()
        let starts = PrimaryTimeline(playlist: playlist).segmentStarts
        for (range, splice) in zip(ranges, splices) {
            #expect(splice.scte35Out?.hasPrefix("0xFC30") == true)
            #expect(splice.duration == seconds(range.1 - range.0))
            let index = try #require(starts.firstIndex(of: seconds(range.0)))
            #expect(splice.startDate == dates[index])
            #expect(splice.startDate == OriginConfiguration.default.programDateTime.adding(seconds(range.0)))
        }
    }

    @Test("stitched mode: premium viewers' playlists are the bare content, byte for byte the interstitial primary without date ranges")
    func premiumGetsNothing() throws {
        let origin = try defaultOrigin()
        let stitched = try origin.servedMediaPlaylist("/vod/movie-stitched/alice/main.m3u8")
        #expect(stitched.segments.allSatisfy { $0.adMarkers.isEmpty && !$0.isDiscontinuity && $0.dateRanges.isEmpty })
        #expect(stitched.segments.map(\.uri) == (0..<30).map { "/media/content/\($0).ts" })
    }

    @Test("a post-roll ends the playlist with CUE-IN after its last ad segment, and StitchedAds closes the range at the end")
    func postRoll() throws {
        let origin = try origin(json: """
            {"ads": [{"id": "a", "media": "ads/ad-10s"}], "viewers": [{"id": "v", "pod": ["a"]}],
             "streams": [{"id": "s", "kind": "vod", "mode": "stitched", "durationSeconds": 8,
                          "breaks": [{"id": "post", "positionSeconds": 8, "dateRange": {"CUE": "POST"}}]}]}
            """)
        let response = origin.get("/vod/s/v/main.m3u8")
        #expect(validationErrors(response.body).isEmpty)
        let playlist = try MediaPlaylist(parsing: response.body)
        #expect(playlist.trailingAdMarkers == [.cueIn])
        #expect(StitchedAds(playlist: playlist).ranges == [MediaTimeRange(start: seconds(8), end: seconds(18))])
    }

    @Test("longer segments join consecutive content chunks, and a VOD longer than the media loops it")
    func longerSegments() throws {
        let origin = try origin(json: """
            {"viewers": [{"id": "v"}],
             "streams": [{"id": "s", "kind": "vod", "mode": "interstitials", "durationSeconds": 136, "segmentDurationSeconds": 8}]}
            """)
        let response = origin.get("/vod/s/v/main.m3u8")
        #expect(validationErrors(response.body).isEmpty)
        let playlist = try MediaPlaylist(parsing: response.body)
        #expect(playlist.targetDurationSeconds == 8)
        #expect(playlist.segments.count == 17)
        #expect(playlist.segments.allSatisfy { $0.duration == seconds(8) })
        #expect(playlist.segments.first?.uri == "/media/content/0-1.ts")
        #expect(playlist.segments.last?.uri == "/media/content/32-33.ts")
        for segment in playlist.segments {
            #expect(try measuredDuration(origin, segment.uri) == segment.duration, "\(segment.uri)")
        }
    }
}
