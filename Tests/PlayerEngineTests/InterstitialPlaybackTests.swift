import Foundation
import HLSInterstitials
import MediaTime
import PlayerEngine
import Testing
import VirtualTime

private typealias S = PlaybackScenarioTests
private let origin = PlaybackScenarioTests.origin

/// How breaks are entered and played on virtual time: assets back to back, pre-rolls first,
/// breaks reached through another break's resumption or a start position, preload ranges.
@Suite("Interstitial playback")
struct InterstitialPlaybackTests {
    static func interstitialStatuses(_ rig: PlaybackRig) -> [(status: TimeControlStatus, at: Duration)] {
        rig.events.compactMap { event in
            if case .interstitialTimeControlStatusChanged(let status) = event.kind { return (status, event.hostTime) }
            return nil
        }
    }

    // MARK: Assets back to back

    @Test("a break of three 10 s assets lasts 30 s: each next asset is loaded while the current one plays")
    func multiAssetBreakWithoutGaps() throws {
        let rig = S.play { rig in
            S.serveMain(rig, count: 10, extra: S.interstitial("three", at: 12, "X-ASSET-LIST=\"ads/three.json\""))
            for name in ["a10", "b10", "c10"] { S.serveAd(rig, name, seconds: 10) }
            rig.serve(origin + "ads/three.json", #"{"ASSETS":[{"URI":"a10.m3u8","DURATION":10},{"URI":"b10.m3u8","DURATION":10},{"URI":"c10.m3u8","DURATION":10}]}"#)
        }
        let start = try #require(S.breakStarts(rig).first { $0.id == "three" }?.at)
        let end = try #require(S.breakEnds(rig).first { $0.id == "three" })
        #expect(end.end == "completed")
        #expect(end.at - start == .seconds(30))
        // The interstitial player never waits once the first asset plays.
        let statuses = Self.interstitialStatuses(rig).filter { $0.at > start && $0.at < end.at }
        #expect(!statuses.contains { $0.status != .playing && $0.status != .paused })
    }

    // MARK: Entering breaks

    @Test("a pre-roll plays first when a live join lands inside another break")
    func preRollFirstOnLiveJoinInsideBreak() {
        let rig = S.play({ rig in
            // The join point (timeline 12 s) is 4 s into a 10 s range break at timeline 8 s.
            LivePlaybackScenarioTests.serveLive(rig, LivePlaybackScenarioTests.LiveStream(events: [
                (.zero, S.interstitial("pre", at: 0, "CUE=\"PRE\",DURATION=5.0,X-ASSET-URI=\"ads/a5.m3u8\"")),
                (.zero, S.interstitial("live-ad", at: 44, "DURATION=10.0,X-TIMELINE-OCCUPIES=\"RANGE\",X-ASSET-LIST=\"ads/live.json\"")),
            ]))
            S.serveAd(rig, "a5", seconds: 5)
            S.serveAd(rig, "a10", seconds: 10)
            rig.serve(origin + "ads/live.json", #"{"ASSETS":[{"URI":"a10.m3u8","DURATION":10}]}"#)
        }, item: LivePlaybackScenarioTests.liveItem, limit: .seconds(30))
        #expect(S.breakStarts(rig).map(\.id).first == "pre")
        // Primary stood still until the pre-roll ended.
        let preEnd = S.breakEnds(rig).first { $0.id == "pre" }
        #expect(preEnd?.end == "completed")
        let playedPrimaryBefore = rig.events.contains { event in
            if case .timeControlStatusChanged(.playing) = event.kind { return event.hostTime < (preEnd?.at ?? .zero) }
            return false
        }
        #expect(!playedPrimaryBefore)
    }

    @Test("a pre-roll plays first, not after primary, when the live join lands inside a break whose asset list fails")
    func preRollFirstWhenJoinedBreakFails() {
        let rig = S.play({ rig in
            LivePlaybackScenarioTests.serveLive(rig, LivePlaybackScenarioTests.LiveStream(events: [
                (.zero, S.interstitial("pre", at: 0, "CUE=\"PRE\",DURATION=5.0,X-ASSET-URI=\"ads/a5.m3u8\"")),
                (.zero, S.interstitial("live-ad", at: 44, "DURATION=10.0,X-TIMELINE-OCCUPIES=\"RANGE\",X-ASSET-LIST=\"ads/missing.json\"")),
            ]))
            S.serveAd(rig, "a5", seconds: 5)
        }, item: LivePlaybackScenarioTests.liveItem, limit: .seconds(30))
        #expect(S.breakStarts(rig).map(\.id) == ["pre"])
        #expect(S.breakEnds(rig).first?.end == "completed")
        #expect(S.breakStarts(rig).first?.at ?? .seconds(99) < .seconds(1))
    }

    @Test("a break that an earlier break resumes inside is joined at the offset, with _HLS_start_offset")
    func breakJoinedWhereAnEarlierBreakResumes() throws {
        let rig = S.play { rig in
            S.serveMain(rig, count: 10, extra:
                S.interstitial("pre", at: 0, "CUE=\"PRE\",X-ASSET-URI=\"ads/a5.m3u8\",X-RESUME-OFFSET=15.0")
                + S.interstitial("mid", at: 10, "DURATION=10.0,X-TIMELINE-OCCUPIES=\"RANGE\",X-ASSET-LIST=\"ads/mid.json\""))
            S.serveAd(rig, "a5", seconds: 5)
            S.serveAd(rig, "a10", seconds: 10)
            rig.serve(origin + "ads/mid.json", #"{"ASSETS":[{"URI":"a10.m3u8","DURATION":10}]}"#)
        }
        #expect(S.breakStarts(rig).map(\.id) == ["pre", "mid"])
        let listRequest = rig.loader.requests.map(\.url).first { $0.contains("mid.json") }
        #expect(listRequest?.contains("_HLS_start_offset=5") == true)
        let ends = S.breakEnds(rig)
        #expect(ends.map(\.end) == ["completed", "completed"])
        #expect(ends.map(\.resume) == [MediaTime(seconds: 15), MediaTime(seconds: 20)])
        // Joined 5 s in, the mid-roll plays its last 5 s.
        let midStart = try #require(S.breakStarts(rig).last?.at)
        let midEnd = try #require(ends.last?.at)
        #expect(midEnd - midStart > .seconds(5) && midEnd - midStart < .milliseconds(5300))
    }

    @Test("a VOD start position inside a break's range plays the break from its start, as a seek there does")
    func startInsideBreakPlaysIt() throws {
        let rig = S.play({ rig in
            S.serveMain(rig, count: 10, extra: S.interstitial("range", at: 10, "DURATION=20.0,X-TIMELINE-OCCUPIES=\"RANGE\",X-ASSET-URI=\"ads/a20.m3u8\""))
            S.serveAd(rig, "a20", seconds: 20)
        }, item: PlayerItem(url: origin + "main.m3u8", startTime: MediaTime(seconds: 15), primaryID: "P1"))
        #expect(S.breakStarts(rig).map(\.id) == ["range"])
        #expect(S.breakEnds(rig).first?.end == "completed")
        #expect(S.breakEnds(rig).first?.resume == MediaTime(seconds: 30))
        // From its start, not from the 5 s the start position is into it: all of its 20 s play.
        let start = try #require(S.breakStarts(rig).first?.at)
        let end = try #require(S.breakEnds(rig).first?.at)
        #expect(end - start >= .seconds(20) && end - start < .milliseconds(20_300), "\(end - start)")
        #expect(rig.loader.requests.contains { $0.url.contains("ads/a20.m3u8") })
    }

    // MARK: Preload date ranges

    @Test("a live preload date range has the break's asset list loaded at its start, ahead of the fixed lead")
    func preloadRangeLoadsAssetListEarly() throws {
        // The timeline starts at stream 36 s and playback at 12 s (stream 48 s, host time 0). The
        // break is at stream 100 s (timeline 64 s): the asset-list lead (15 s) would ask at timeline
        // 49 s, host 37 s. The preload range starts at stream 70 s: timeline 34 s, host 22 s.
        let preload = #"#EXT-X-DATERANGE:ID="warm-up",CLASS="com.apple.hls.preload",START-DATE="2026-01-01T00:01:10.000Z",DURATION=10,X-URI="ads/live.json",X-TARGET-ID="live-ad",X-TARGET-CLASS="com.apple.hls.interstitial""# + "\n"
        let rig = S.play({ rig in
            LivePlaybackScenarioTests.serveLive(rig, LivePlaybackScenarioTests.LiveStream(events: [
                (.zero, preload),
                (.zero, S.interstitial("live-ad", at: 100, "DURATION=10.0,X-ASSET-LIST=\"ads/live.json\"")),
            ]))
            S.serveAd(rig, "a10", seconds: 10)
            rig.serve(origin + "ads/live.json", #"{"ASSETS":[{"URI":"a10.m3u8","DURATION":10}]}"#)
        }, item: LivePlaybackScenarioTests.liveItem, limit: .seconds(30))
        let answered = try #require(rig.events.first { event in
            if case .assetListResponse("live-ad", _) = event.kind { return true } else { return false }
        })
        #expect(answered.hostTime > .seconds(22) && answered.hostTime < .seconds(23))
    }

    @Test("without a preload date range the same break's asset list is loaded at the fixed lead, 15 s before the break")
    func fixedLeadWithoutPreloadRange() throws {
        // As above, less the preload range: the break at timeline 64 s is asked for 15 s before
        // (PlayerConfiguration.assetListLead), at timeline 49 s, host 37 s.
        let rig = S.play({ rig in
            LivePlaybackScenarioTests.serveLive(rig, LivePlaybackScenarioTests.LiveStream(events: [
                (.zero, S.interstitial("live-ad", at: 100, "DURATION=10.0,X-ASSET-LIST=\"ads/live.json\"")),
            ]))
            S.serveAd(rig, "a10", seconds: 10)
            rig.serve(origin + "ads/live.json", #"{"ASSETS":[{"URI":"a10.m3u8","DURATION":10}]}"#)
        }, item: LivePlaybackScenarioTests.liveItem, limit: .seconds(50))
        let answered = try #require(rig.events.first { event in
            if case .assetListResponse("live-ad", _) = event.kind { return true } else { return false }
        })
        #expect(PlayerConfiguration().assetListLead == MediaTime(seconds: 15))
        #expect(answered.hostTime > .seconds(37) && answered.hostTime < .seconds(38), "answered at \(answered.hostTime)")
    }
}
