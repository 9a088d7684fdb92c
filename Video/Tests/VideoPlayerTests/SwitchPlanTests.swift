import HLSInterstitials
import HLSPlaylist
import MediaTime
import Testing
import VideoBackend
import VideoPlayer

@Suite("SwitchPlan")
struct SwitchPlanTests {
    static let base = "http://origin.test/vod/main.m3u8"

    /// A 60 s playlist of 6 s segments with these date ranges.
    static func schedule(_ dateRanges: [String], assetLists: [String: InterstitialSchedule.AssetListState] = [:]) throws -> InterstitialSchedule {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:6", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z"]
        lines += dateRanges
        for index in 0..<10 { lines += ["#EXTINF:6.0,", "seg-\(index).ts"] }
        lines.append("#EXT-X-ENDLIST")
        let playlist = try MediaPlaylist(parsing: lines.joined(separator: "\n"), options: ParseOptions(playlistURI: base))
        return InterstitialSchedule(primary: PrimaryTimeline(playlist: playlist), events: InterstitialEvent.events(in: playlist).events,
                                    options: InterstitialSchedule.Options(assetLists: assetLists))
    }

    static func dateRange(_ id: String, at seconds: Int, _ attributes: String) -> String {
        "#EXT-X-DATERANGE:ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:\(seconds < 10 ? "0" : "")\(seconds).000Z\",\(attributes)"
    }

    @Test("a point break waits (resumes where it left), a range break with a resumption offset replaces primary; asset URIs resolved against the playlist")
    func pointAndRange() throws {
        let schedule = try Self.schedule([
            Self.dateRange("point", at: 12, "DURATION=5,X-RESUME-OFFSET=0,X-ASSET-URI=\"ads/a.m3u8\""),
            Self.dateRange("range", at: 30, "DURATION=6,X-TIMELINE-OCCUPIES=\"RANGE\",X-RESTRICT=\"SKIP\",X-ASSET-URI=\"http://ads.test/b.m3u8\""),
        ])
        let plan = SwitchPlan(schedule: schedule, baseURI: Self.base)
        #expect(plan.items.map(\.id) == ["point", "range"])
        let point = try #require(plan.items.first)
        #expect(point.scheduledBreak.start == MediaTime(seconds: 12))
        #expect(point.scheduledBreak.duration == MediaTime(seconds: 5))
        #expect(point.scheduledBreak.resumptionPoint == MediaTime(seconds: 12))
        #expect(point.assetURIs == ["http://origin.test/vod/ads/a.m3u8"])
        #expect(!point.isSkipRestricted)
        let range = try #require(plan.items.last)
        #expect(range.scheduledBreak.resumptionPoint == MediaTime(seconds: 36))
        #expect(range.isSkipRestricted)
        #expect(plan.next(after: MediaTime(seconds: 12))?.id == "range", "a seek to a break's start passes it")
        #expect(plan.next(after: MediaTime(seconds: 31)) == nil)
    }

    @Test("an asset list's pod plays its assets in order for their total, each asset's duration known; a pre-roll is played; a failed list is left out, saying why")
    func podsAndOmissions() throws {
        let pod = AssetList(assets: [AssetList.Asset(uri: "/ads/10.m3u8", duration: MediaTime(seconds: 10)),
                                     AssetList.Asset(uri: "/ads/20.m3u8", duration: MediaTime(seconds: 20))])
        let schedule = try Self.schedule([
            Self.dateRange("pre", at: 0, "DURATION=5,X-ASSET-URI=\"pre.m3u8\""),
            Self.dateRange("mid", at: 24, "PLANNED-DURATION=30,X-RESUME-OFFSET=0,X-ASSET-LIST=\"/ads/mid.json\""),
            Self.dateRange("gone", at: 48, "PLANNED-DURATION=30,X-ASSET-LIST=\"/ads/gone.json\""),
        ], assetLists: ["mid": .resolved(pod), "gone": .failed("404")])
        let plan = SwitchPlan(schedule: schedule, baseURI: Self.base)
        #expect(plan.items.map(\.id) == ["pre", "mid"])
        #expect(plan.items.first?.scheduledBreak.start == .zero)
        #expect(plan.next(after: MediaTime(seconds: -1))?.id == "pre", "the first break armed is the pre-roll")
        let mid = try #require(plan.items.last)
        #expect(mid.assetURIs == ["http://origin.test/ads/10.m3u8", "http://origin.test/ads/20.m3u8"])
        #expect(mid.assetDurations == [MediaTime(seconds: 10), MediaTime(seconds: 20)])
        #expect(mid.scheduledBreak.duration == MediaTime(seconds: 30))
        #expect(plan.omissions == [.playsNothing(id: "gone")])
    }

    @Test("seeks follow the timeline's rules: past a JUMP break plays it first from its start, into a SKIP break plays it from its start, inside a SKIP break forward is refused")
    func seeks() throws {
        let schedule = try Self.schedule([
            Self.dateRange("jump", at: 12, "DURATION=5,X-RESUME-OFFSET=0,X-RESTRICT=\"JUMP\",X-ASSET-URI=\"a.m3u8\""),
            Self.dateRange("skip", at: 40, "DURATION=10,X-TIMELINE-OCCUPIES=\"RANGE\",X-RESTRICT=\"SKIP\",X-ASSET-URI=\"b.m3u8\""),
            Self.dateRange("free", at: 54, "DURATION=3,X-RESUME-OFFSET=0,X-ASSET-URI=\"c.m3u8\""),
        ])
        let step = MediaTime(seconds: 10)
        #expect(SeekDecision.resolve(.seek(by: step), at: .primary(MediaTime(seconds: 5)), schedule: schedule) == .playBreak(eventID: "jump", offset: .zero, then: MediaTime(seconds: 15)))
        #expect(SeekDecision.resolve(.seek(by: step), at: .primary(MediaTime(seconds: 20)), schedule: schedule) == .primary(MediaTime(seconds: 30)))
        // 33 s of primary is 38 s on the integrated timeline (after "jump"'s 5 s); 10 s on is 3 s
        // into "skip", which may not be entered part-way.
        #expect(SeekDecision.resolve(.seek(by: step), at: .primary(MediaTime(seconds: 33)), schedule: schedule)
            == .playBreak(eventID: "skip", offset: .zero, then: nil))
        #expect(SeekDecision.resolve(.seek(by: MediaTime(seconds: -10)), at: .primary(MediaTime(seconds: 30)), schedule: schedule) == .primary(MediaTime(seconds: 20)))
        guard case .refused = SeekDecision.resolve(.seek(by: step), at: .interstitial(eventID: "skip", offset: MediaTime(seconds: 2)), schedule: schedule) else {
            Issue.record("a forward seek in a SKIP break is refused")
            return
        }
        guard case .refused = SeekDecision.resolve(.skip, at: .interstitial(eventID: "skip", offset: MediaTime(seconds: 2)), schedule: schedule) else {
            Issue.record("a SKIP break is not skipped")
            return
        }
        #expect(SeekDecision.resolve(.skip, at: .interstitial(eventID: "free", offset: MediaTime(seconds: 1)), schedule: schedule) == .skipBreak)
    }

    @Test("a seek into a range break plays it from the offset sought, and what is left of it; into a pod, from the event and offset there")
    func seekIntoARangeBreak() throws {
        let schedule = try Self.schedule([
            Self.dateRange("open", at: 30, "DURATION=6,X-TIMELINE-OCCUPIES=\"RANGE\",X-ASSET-URI=\"a.m3u8\""),
        ])
        let step = MediaTime(seconds: 10)
        // A range break occupies its primary range on the integrated timeline: 25 s + 10 s is 5 s into it.
        #expect(SeekDecision.resolve(.seek(by: step), at: .primary(MediaTime(seconds: 25)), schedule: schedule)
            == .playBreak(eventID: "open", offset: MediaTime(seconds: 5), then: nil))
        let plan = SwitchPlan(schedule: schedule, baseURI: Self.base)
        let open = try #require(plan.items.first)
        #expect(open.offset(ofEvent: "open") == .zero)
        #expect(open.scheduledBreak.resumptionPoint == MediaTime(seconds: 36), "what is left of it plays, then primary from its end")
        let pod = try #require(SwitchPlan(schedule: try Self.schedule([
            Self.dateRange("a", at: 30, "DURATION=4,X-RESUME-OFFSET=0,X-ASSET-URI=\"a.m3u8\""),
            Self.dateRange("b", at: 30, "DURATION=6,X-RESUME-OFFSET=0,X-ASSET-URI=\"b.m3u8\""),
        ]), baseURI: Self.base).items.first)
        #expect(pod.id == "a+b")
        #expect(pod.offset(ofEvent: "b") == MediaTime(seconds: 4))
        #expect(pod.event(atPodOffset: MediaTime(seconds: 5)) == ("b", MediaTime(seconds: 1)))
        #expect(pod.event(atPodOffset: MediaTime(seconds: 3)) == ("a", MediaTime(seconds: 3)))
    }
}
