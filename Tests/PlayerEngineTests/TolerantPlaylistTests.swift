import HLSInterstitials
import MediaTime
import PlayerEngine
import Testing

/// Issue 11, items 9, 10 and 16: the player plays what a tolerant reader can make of an imperfect
/// playlist or asset list, and says what it repaired, once.
@Suite("Playback of imperfect playlists")
struct TolerantPlaylistTests {
    typealias S = PlaybackScenarioTests
    static let origin = S.origin

    static func warnings(_ rig: PlaybackRig) -> [String] {
        rig.events.compactMap { event -> String? in
            if case .warning(let message) = event.kind { return message }
            return nil
        }
    }

    @Test("a break written X-TIMELINE-OCCUPIES=RANGE without quotes plays as a range break, with one warning on its line")
    func unquotedRangeBreakPlays() {
        let rig = S.play { rig in
            S.serveMain(rig, count: 10, extra: S.interstitial("range", at: 20, "DURATION=10.0,X-TIMELINE-OCCUPIES=RANGE,X-ASSET-URI=\"ads/a10.m3u8\""))
            S.serveAd(rig, "a10", seconds: 10)
        }
        #expect(S.breakStarts(rig).map(\.id) == ["range"], "the break is played")
        #expect(rig.player.currentSnapshot?.duration == MediaTime(seconds: 40), "a range break stands in for its primary")
        let warnings = Self.warnings(rig).filter { $0.contains("X-TIMELINE-OCCUPIES") }
        #expect(warnings.count == 1, "\(Self.warnings(rig))")
        #expect(warnings.first?.contains("main.m3u8 line") == true)
    }

    @Test("a break with a stray space after a comma plays as written, with one warning on its line")
    func straySpaceAfterCommaPlays() {
        let rig = S.play { rig in
            S.serveMain(rig, count: 10, extra: S.interstitial("range", at: 20, "DURATION=10.0, X-TIMELINE-OCCUPIES=\"RANGE\",X-ASSET-URI=\"ads/a10.m3u8\""))
            S.serveAd(rig, "a10", seconds: 10)
        }
        #expect(S.breakStarts(rig).map(\.id) == ["range"], "the break is played")
        #expect(rig.player.currentSnapshot?.duration == MediaTime(seconds: 40), "the attribute after the space is read: a range break")
        let warnings = Self.warnings(rig).filter { $0.contains("main.m3u8 line") }
        #expect(warnings.count == 1, "\(Self.warnings(rig))")
    }

    @Test("a later tag with the same ID that conflicts on one attribute still adds its others to the break, with one warning")
    func conflictingLaterTagIsMerged() {
        let rig = S.play { rig in
            S.serveMain(rig, count: 10, extra: S.interstitial("mid", at: 20, "PLANNED-DURATION=5,X-ASSET-URI=\"ads/a5.m3u8\"")
                + S.interstitial("mid", at: 20, "PLANNED-DURATION=6,X-RESUME-OFFSET=3"))
            S.serveAd(rig, "a5", seconds: 5)
        }
        #expect(S.breakStarts(rig).map(\.id) == ["mid"], "the break is played")
        #expect(S.breakEnds(rig).first?.resume == MediaTime(seconds: 23), "the later tag's X-RESUME-OFFSET applies (discarded whole, primary would resume at 20)")
        let warnings = Self.warnings(rig).filter { $0.contains("PLANNED-DURATION") }
        #expect(warnings.count == 1, "\(Self.warnings(rig))")
    }

    @Test("an asset list with an empty URI plays its other assets and warns about the one skipped")
    func emptyAssetURIIsSkipped() {
        let rig = S.play { rig in
            S.serveMain(rig, count: 10, extra: S.interstitial("mid", at: 20, "X-ASSET-LIST=\"ads/mid.json\""))
            rig.serve(Self.origin + "ads/mid.json", #"{"ASSETS":[{"URI":"","DURATION":5},{"URI":"\#(Self.origin)ads/a5.m3u8","DURATION":5}]}"#)
            S.serveAd(rig, "a5", seconds: 5)
        }
        #expect(S.breakEnds(rig).first?.resume == MediaTime(seconds: 25), "the break played its valid 5 s asset (a failed list would resume at 20)")
        #expect(rig.loader.requests.contains { $0.url.contains("a5-seg-0.ts") }, "the valid asset is played")
        #expect(Self.warnings(rig).contains { $0.contains("$.ASSETS[0].URI") }, "\(Self.warnings(rig))")
    }
}
