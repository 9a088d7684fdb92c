import HLSPlaylist
import MediaTime
import StreamOrigin
import Testing

@Suite("OriginConfiguration")
struct OriginConfigurationTests {
    @Test("the embedded default reads: the talk's viewers, four ads, VOD and live streams in both modes")
    func defaultConfiguration() throws {
        let configuration = OriginConfiguration.default
        #expect(configuration.viewers.map(\.id) == ["alice", "bob", "charlie", "dana"])
        #expect(configuration.viewer(id: "alice")?.isPremium == true)
        #expect(configuration.viewer(id: "charlie")?.pod == ["spot-10s", "spot-20s"])
        #expect(configuration.viewer(id: "dana")?.region == "DE")
        #expect(configuration.ads.map(\.media) == ["ads/ad-5s", "ads/ad-10s", "ads/ad-15s", "ads/ad-20s"])
        #expect(configuration.streams.map { "\($0.id):\($0.kind.rawValue):\($0.mode.rawValue)" } == [
            "movie:vod:interstitials", "movie-stitched:vod:stitched", "channel:live:interstitials", "channel-stitched:live:stitched",
        ])
        guard case .vod(let vod) = configuration.stream(id: "movie")?.timing else {
            Issue.record("movie is not VOD")
            return
        }
        #expect(vod.duration == seconds(120))
        #expect(vod.breaks.map(\.id) == ["legal", "mid-1", "mid-2"])
        #expect(vod.breaks.map(\.position) == [seconds(0), seconds(40), seconds(80)])
        let legal = vod.breaks[0]
        #expect(legal.targeting.regions == ["DE"])
        #expect(legal.targeting.pod == ["legal-warning"])
        #expect(legal.dateRange.cue == [.pre, .once])
        #expect(legal.dateRange.restrict == [.skip, .jump])
        #expect(legal.dateRange.resumeOffset == .zero)
        #expect(vod.breaks[1].dateRange.timelineOccupies == .range)
        #expect(vod.breaks[1].dateRange.plannedDuration == seconds(30))
        #expect(vod.breaks[2].dateRange.playoutLimit == seconds(30))
        guard case .live(let live) = configuration.stream(id: "channel")?.timing else {
            Issue.record("channel is not live")
            return
        }
        #expect(live.window == seconds(60))
        #expect(live.hasDeltaUpdates)
        #expect(live.startDate == nil)
        #expect(live.repeatingBreak?.first == seconds(20))
        #expect(live.repeatingBreak?.interval == seconds(60))
        #expect(live.repeatingBreak?.dateRange.resumeOffset == nil, "a live break resumes at the live edge (S1.9)")
        #expect(live.repeatingBreak?.dateRange.snap == [.out, .in])
    }

    @Test("date-range attributes are read exactly, by their playlist names, as lists or strings")
    func dateRangeAttributes() throws {
        let configuration = try OriginConfiguration(json: Array("""
            {"streams": [{"id": "s", "kind": "vod", "mode": "interstitials", "durationSeconds": 8,
              "breaks": [{"id": "b", "positionSeconds": 4, "dateRange": {
                "DURATION": 0.1, "X-RESUME-OFFSET": -2.5, "CUE": "ONCE", "X-SNAP": ["OUT", "IN"], "X-CONTENT-MAY-VARY": false,
                "X-TIMELINE-STYLE": "PRIMARY", "X-COM-EXAMPLE-BEACON": "abc", "X-COM-EXAMPLE-WEIGHT": 3}}]}]}
            """.utf8))
        guard case .vod(let vod) = configuration.streams[0].timing else {
            Issue.record("not VOD")
            return
        }
        let range = vod.breaks[0].dateRange
        #expect(range.duration == MediaTime(value: 1, timescale: 10))
        #expect(range.resumeOffset == MediaTime(value: -5, timescale: 2))
        #expect(range.cue == [.once])
        #expect(range.snap == [.out, .in])
        #expect(range.contentMayVary == .no)
        #expect(range.timelineStyle == .primary)
        #expect(range.clientAttribute(named: "X-COM-EXAMPLE-BEACON") == .quotedString("abc"))
        #expect(range.clientAttribute(named: "X-COM-EXAMPLE-WEIGHT") == .decimal("3"))
    }

    @Test("a mistake names its JSON path and what to do", arguments: [
        (#"{"viewers": [{"id": "bob", "pod": ["nope"]}]}"#, "$.viewers[0].pod[0]", "no ad \"nope\""),
        (#"{"viewers": [{"id": "bob"}, {"id": "bob"}]}"#, "$.viewers[1]", "a second viewer \"bob\""),
        (#"{"viewers": [{"id": "b/ob"}]}"#, "$.viewers[0].id", "identifier"),
        (#"{"streams": [{"id": "s", "kind": "vod", "mode": "interstitials", "durationSecond": 8}]}"#, "$.streams[0].durationSecond", "unknown key"),
        (#"{"streams": [{"id": "s", "kind": "vod", "mode": "interstitials"}]}"#, "$.streams[0].durationSeconds", "is required"),
        (#"{"streams": [{"id": "s", "kind": "vod", "mode": "both", "durationSeconds": 8}]}"#, "$.streams[0].mode", "interstitials"),
        (#"{"streams": [{"id": "s", "kind": "tv", "mode": "stitched"}]}"#, "$.streams[0].kind", "\"vod\" or \"live\""),
        (#"{"streams": [{"id": "s", "kind": "vod", "mode": "interstitials", "durationSeconds": 8, "breaks": [{"id": "b", "positionSeconds": 4, "dateRange": {"CUE": "PRE"}}]}]}"#,
         "$.streams[0].breaks[0]", "set positionSeconds to 0"),
        (#"{"streams": [{"id": "s", "kind": "vod", "mode": "interstitials", "durationSeconds": 8, "breaks": [{"id": "b", "positionSeconds": 12}]}]}"#,
         "$.streams[0].breaks[0].positionSeconds", "outside the content"),
        (#"{"streams": [{"id": "s", "kind": "vod", "mode": "interstitials", "durationSeconds": 8, "breaks": [{"id": "b", "positionSeconds": 4, "dateRange": {"X-TIMELINE-OCCUPIES": "AREA"}}]}]}"#,
         "$.streams[0].breaks[0].dateRange.X-TIMELINE-OCCUPIES", "POINT, RANGE"),
        (#"{"streams": [{"id": "s", "kind": "vod", "mode": "interstitials", "durationSeconds": 8, "breaks": [{"id": "b", "positionSeconds": 4, "dateRange": {"X-ASSET-LIST": "x.json"}}]}]}"#,
         "$.streams[0].breaks[0].dateRange.X-ASSET-LIST", "written by the origin"),
        (#"{"streams": [{"id": "s", "kind": "vod", "mode": "interstitials", "durationSeconds": 8, "breaks": [{"id": "b", "positionSeconds": 4, "dateRange": {"DURATION": -1}}]}]}"#,
         "$.streams[0].breaks[0].dateRange.DURATION", ""),
        (#"{"streams": [{"id": "s", "kind": "live", "mode": "stitched", "windowSeconds": 60, "repeatingBreak": {"id": "ad", "everySeconds": 60, "dateRange": {"CUE": "PRE"}}}]}"#,
         "$.streams[0].repeatingBreak.dateRange.CUE", "PRE and POST cues are for VOD"),
        (#"{"programDateTime": "yesterday"}"#, "$.programDateTime", "ISO 8601"),
        (#"{"content": {"resolution": "big"}}"#, "$.content.resolution", "WIDTHxHEIGHT"),
        (#"[1, 2]"#, "$", "JSON object"),
    ])
    func locatedErrors(json: String, path: String, message: String) {
        #expect {
            _ = try OriginConfiguration(json: Array(json.utf8))
        } throws: { error in
            guard let error = error as? OriginConfigurationError else { return false }
            return error.path == path && error.message.contains(message)
        }
    }

    @Test("what does not fit the measured media is refused when the origin is made", arguments: [
        (#""kind": "vod", "mode": "stitched", "durationSeconds": 10.5"#, "$.streams[0].durationSeconds", "try 10 or 11"),
        (#""kind": "vod", "mode": "stitched", "durationSeconds": 12, "breaks": [{"id": "b", "positionSeconds": 6}]"#,
         "$.streams[0].breaks[0].positionSeconds", "not a multiple of the 4-second segment duration"),
        (#""kind": "vod", "mode": "stitched", "durationSeconds": 12, "segmentDurationSeconds": 6"#, "$.streams[0].segmentDurationSeconds",
         "content segments of 4 s"),
        (#""kind": "live", "mode": "stitched", "windowSeconds": 12"#, "$.streams[0].windowSeconds", "three target durations"),
        (#""kind": "live", "mode": "stitched", "windowSeconds": 60, "repeatingBreak": {"id": "ad", "everySeconds": 32}"#,
         "$.streams[0].repeatingBreak.everySeconds", "viewer \"charlie\" gets 30 s of ads"),
    ])
    func mediaMismatches(stream: String, path: String, message: String) {
        let json = """
            {"ads": [{"id": "a10", "media": "ads/ad-10s"}, {"id": "a20", "media": "ads/ad-20s"}],
             "viewers": [{"id": "charlie", "pod": ["a10", "a20"]}],
             "streams": [{"id": "s", \(stream)}]}
            """
        #expect {
            _ = try origin(json: json)
        } throws: { error in
            guard let error = error as? OriginConfigurationError else { return false }
            return error.path == path && error.message.contains(message)
        }
    }

    @Test("a missing media folder is named")
    func missingMedia() {
        #expect {
            _ = try MediaLibrary.load(directory: mediaDirectory, configuration: OriginConfiguration(json: Array(#"{"ads": [{"id": "x", "media": "ads/none"}]}"#.utf8)))
        } throws: { error in
            (error as? OriginConfigurationError)?.path.hasSuffix("ads/none") == true
        }
    }
}
