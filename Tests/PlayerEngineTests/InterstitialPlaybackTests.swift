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
}
