import HLSPlaylist
import Testing

@Suite("PlaylistValidator: interstitial and preload rules")
struct PlaylistValidatorInterstitialTests {
    @Test("an interstitial rule is reported on the tag that breaks it", arguments: RuleCase.interstitial)
    func violation(_ rule: RuleCase) throws { try rule.expectViolation() }

    @Test("a near miss of an interstitial rule is clean", arguments: RuleCase.interstitial)
    func nearMiss(_ rule: RuleCase) throws { try rule.expectNearMissIsClean() }

    @Test("a preload rule is reported on the tag that breaks it", arguments: RuleCase.preload)
    func preloadViolation(_ rule: RuleCase) throws { try rule.expectViolation() }

    @Test("a near miss of a preload rule is clean", arguments: RuleCase.preload)
    func preloadNearMiss(_ rule: RuleCase) throws { try rule.expectNearMissIsClean() }

    @Test("a live break announced with PLANNED-DURATION and completed by a later tag is valid")
    func liveBreakCompletedLater() {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
            #EXTINF:6,
            a.ts
            #EXT-X-DATERANGE:ID="break-1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:06.000Z",PLANNED-DURATION=30,X-ASSET-LIST="https://ads.example.com/list.json?_HLS_interstitial_id=break-1",X-SNAP="OUT,IN",X-RESTRICT="SKIP,JUMP",X-TIMELINE-OCCUPIES="RANGE"
            #EXTINF:6,
            b.ts
            #EXT-X-DATERANGE:ID="break-1",DURATION=24,X-PLAYOUT-LIMIT=24,X-RESUME-OFFSET=0,X-SKIP-CONTROL-OFFSET=5,X-SKIP-CONTROL-DURATION=20,X-SKIP-CONTROL-LABEL-ID="Skip_Ad-Label"
            #EXTINF:6,
            c.ts
            """
        #expect(PlaylistValidator.validate(Array(text.utf8)).isEmpty)
    }
}

extension RuleCase {
    static let interstitial: [RuleCase] = [
        RuleCase(
            "interstitial.asset-uri-xor-list", "both",
            at: "#EXT-X-DATERANGE:ID=\"ad1\",X-ASSET-LIST=\"https://ads.example.com/list.json\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8"
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="ad1",X-ASSET-LIST="https://ads.example.com/list.json"
                #EXTINF:10,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8"
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="ad1",DURATION=15
                #EXTINF:10,
                b.ts
                """
        ),
        RuleCase(
            "interstitial.asset-uri-xor-list", "neither",
            at: "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-11-30T05:00:10.000Z\",DURATION=15",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",DURATION=15
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",DURATION=15,X-ASSET-LIST="list.json"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "interstitial.asset-uri-not-absolute",
            at: "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-11-30T05:00:10.000Z\",X-ASSET-URI=\"ads/ad1.m3u8\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="ads/ad1.m3u8"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ads/ad1.m3u8"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "interstitial.class-plural",
            at: "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitials\",START-DATE=\"2026-11-30T05:00:10.000Z\",X-ASSET-URI=\"https://ads.example.com/ad1.m3u8\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitials",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "interstitial.class-missing",
            at: "#EXT-X-DATERANGE:ID=\"ad1\",START-DATE=\"2026-11-30T05:00:10.000Z\",X-ASSET-URI=\"https://ads.example.com/ad1.m3u8\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",START-DATE="2026-11-30T05:00:10.000Z",CLASS="com.apple.hls.interstitial",X-ASSET-URI="https://ads.example.com/ad1.m3u8"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "interstitial.playout-limit-negative",
            at: "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-11-30T05:00:10.000Z\",X-ASSET-URI=\"https://ads.example.com/ad1.m3u8\",X-PLAYOUT-LIMIT=-5",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-PLAYOUT-LIMIT=-5
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-PLAYOUT-LIMIT=5,X-RESUME-OFFSET=-5
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "interstitial.playout-limit-zero",
            at: "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-11-30T05:00:10.000Z\",X-ASSET-URI=\"https://ads.example.com/ad1.m3u8\",X-PLAYOUT-LIMIT=0.000",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-PLAYOUT-LIMIT=0.000
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-PLAYOUT-LIMIT=0.001
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "interstitial.unknown-token", "X-SNAP",
            at: "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-11-30T05:00:10.000Z\",X-ASSET-URI=\"https://ads.example.com/ad1.m3u8\",X-SNAP=\"OUT,LATE\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-SNAP="OUT,LATE"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-SNAP="OUT,IN"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "interstitial.unknown-token", "X-RESTRICT",
            at: "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-11-30T05:00:10.000Z\",X-ASSET-URI=\"https://ads.example.com/ad1.m3u8\",X-RESTRICT=\"SKIP,SEEK\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-RESTRICT="SKIP,SEEK"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-RESTRICT="SKIP,JUMP"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "interstitial.unknown-value", "X-TIMELINE-OCCUPIES",
            at: "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-11-30T05:00:10.000Z\",X-ASSET-URI=\"https://ads.example.com/ad1.m3u8\",X-TIMELINE-OCCUPIES=\"SPAN\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-TIMELINE-OCCUPIES="SPAN"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-TIMELINE-OCCUPIES="RANGE"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "interstitial.unknown-value", "X-TIMELINE-STYLE",
            at: "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-11-30T05:00:10.000Z\",X-ASSET-URI=\"https://ads.example.com/ad1.m3u8\",X-TIMELINE-STYLE=\"highlight\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-TIMELINE-STYLE="highlight"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-TIMELINE-STYLE="HIGHLIGHT"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "interstitial.unknown-value", "X-CONTENT-MAY-VARY",
            at: "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-11-30T05:00:10.000Z\",X-ASSET-URI=\"https://ads.example.com/ad1.m3u8\",X-CONTENT-MAY-VARY=\"FALSE\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-CONTENT-MAY-VARY="FALSE"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-CONTENT-MAY-VARY="NO"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "interstitial.skip-control-label-id-characters",
            at: "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-11-30T05:00:10.000Z\",X-ASSET-URI=\"https://ads.example.com/ad1.m3u8\",X-SKIP-CONTROL-LABEL-ID=\"Skip ad 2\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-SKIP-CONTROL-LABEL-ID="Skip ad 2"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-SKIP-CONTROL-LABEL-ID="Skip_ad-two"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "interstitial.skip-control-not-integer",
            at: "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-11-30T05:00:10.000Z\",X-ASSET-URI=\"https://ads.example.com/ad1.m3u8\",X-SKIP-CONTROL-OFFSET=5.0",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-SKIP-CONTROL-OFFSET=5.0
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-SKIP-CONTROL-OFFSET=5
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "interstitial.skip-control-not-integer", "a negative value the parser rejects",
            at: "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-11-30T05:00:10.000Z\",X-ASSET-URI=\"https://ads.example.com/ad1.m3u8\",X-SKIP-CONTROL-DURATION=-1",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-SKIP-CONTROL-DURATION=-1
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8",X-SKIP-CONTROL-DURATION=0
                #EXTINF:10,
                a.ts
                """
        ),
    ]

    static let preload: [RuleCase] = [
        RuleCase(
            "preload.attribute-required",
            at: "#EXT-X-DATERANGE:ID=\"pre1\",CLASS=\"com.apple.hls.preload\",START-DATE=\"2026-11-30T05:00:00.000Z\",DURATION=8,X-URI=\"https://ads.example.com/list.json\",X-TARGET-ID=\"ad1\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="pre1",CLASS="com.apple.hls.preload",START-DATE="2026-11-30T05:00:00.000Z",DURATION=8,X-URI="https://ads.example.com/list.json",X-TARGET-ID="ad1"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="pre1",CLASS="com.apple.hls.preload",START-DATE="2026-11-30T05:00:00.000Z",DURATION=8,X-URI="https://ads.example.com/list.json",X-TARGET-ID="ad1",X-TARGET-CLASS="com.apple.hls.interstitial"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "preload.duration-required",
            at: "#EXT-X-DATERANGE:ID=\"pre1\",CLASS=\"com.apple.hls.preload\",START-DATE=\"2026-11-30T05:00:00.000Z\",X-URI=\"https://ads.example.com/list.json\",X-TARGET-ID=\"ad1\",X-TARGET-CLASS=\"com.apple.hls.interstitial\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="pre1",CLASS="com.apple.hls.preload",START-DATE="2026-11-30T05:00:00.000Z",X-URI="https://ads.example.com/list.json",X-TARGET-ID="ad1",X-TARGET-CLASS="com.apple.hls.interstitial"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="pre1",CLASS="com.apple.hls.preload",START-DATE="2026-11-30T05:00:00.000Z",END-DATE="2026-11-30T05:00:08.000Z",X-URI="https://ads.example.com/list.json",X-TARGET-ID="ad1",X-TARGET-CLASS="com.apple.hls.interstitial"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "preload.cue-or-end-on-next",
            at: "#EXT-X-DATERANGE:ID=\"pre1\",CLASS=\"com.apple.hls.preload\",START-DATE=\"2026-11-30T05:00:00.000Z\",DURATION=8,CUE=\"ONCE\",X-URI=\"https://ads.example.com/list.json\",X-TARGET-ID=\"ad1\",X-TARGET-CLASS=\"com.apple.hls.interstitial\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="pre1",CLASS="com.apple.hls.preload",START-DATE="2026-11-30T05:00:00.000Z",DURATION=8,CUE="ONCE",X-URI="https://ads.example.com/list.json",X-TARGET-ID="ad1",X-TARGET-CLASS="com.apple.hls.interstitial"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="pre1",CLASS="com.apple.hls.preload",START-DATE="2026-11-30T05:00:00.000Z",DURATION=8,X-URI="https://ads.example.com/list.json",X-TARGET-ID="ad1",X-TARGET-CLASS="com.apple.hls.interstitial"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "preload.target-class-mismatch",
            at: "#EXT-X-DATERANGE:ID=\"pre1\",CLASS=\"com.apple.hls.preload\",START-DATE=\"2026-11-30T05:00:00.000Z\",DURATION=8,X-URI=\"https://ads.example.com/ad1.m3u8\",X-TARGET-ID=\"ad1\",X-TARGET-CLASS=\"com.example.ad\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="pre1",CLASS="com.apple.hls.preload",START-DATE="2026-11-30T05:00:00.000Z",DURATION=8,X-URI="https://ads.example.com/ad1.m3u8",X-TARGET-ID="ad1",X-TARGET-CLASS="com.example.ad"
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8"
                #EXTINF:10,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="pre1",CLASS="com.apple.hls.preload",START-DATE="2026-11-30T05:00:00.000Z",DURATION=8,X-URI="https://ads.example.com/ad1.m3u8",X-TARGET-ID="ad1",X-TARGET-CLASS="com.apple.hls.interstitial"
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:10.000Z",X-ASSET-URI="https://ads.example.com/ad1.m3u8"
                #EXTINF:10,
                b.ts
                """
        ),
        RuleCase(
            "preload.ignored-with-endlist",
            at: "#EXT-X-DATERANGE:ID=\"pre1\",CLASS=\"com.apple.hls.preload\",START-DATE=\"2026-11-30T05:00:00.000Z\",DURATION=8,X-URI=\"https://ads.example.com/list.json\",X-TARGET-ID=\"ad1\",X-TARGET-CLASS=\"com.apple.hls.interstitial\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="pre1",CLASS="com.apple.hls.preload",START-DATE="2026-11-30T05:00:00.000Z",DURATION=8,X-URI="https://ads.example.com/list.json",X-TARGET-ID="ad1",X-TARGET-CLASS="com.apple.hls.interstitial"
                #EXTINF:10,
                a.ts
                #EXT-X-ENDLIST
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="pre1",CLASS="com.apple.hls.preload",START-DATE="2026-11-30T05:00:00.000Z",DURATION=8,X-URI="https://ads.example.com/list.json",X-TARGET-ID="ad1",X-TARGET-CLASS="com.apple.hls.interstitial"
                #EXTINF:10,
                a.ts
                """
        ),
    ]
}
