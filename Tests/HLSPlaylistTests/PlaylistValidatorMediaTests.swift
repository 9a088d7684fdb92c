import HLSPlaylist
import Testing

@Suite("PlaylistValidator: media playlist rules")
struct PlaylistValidatorMediaTests {
    @Test("a media playlist rule is reported on the line that breaks it", arguments: RuleCase.media)
    func violation(_ rule: RuleCase) throws { try rule.expectViolation() }

    @Test("a near miss of a media playlist rule is clean", arguments: RuleCase.media)
    func nearMiss(_ rule: RuleCase) throws { try rule.expectNearMissIsClean() }
}

extension RuleCase {
    static let media: [RuleCase] = [
        RuleCase(
            "media.target-duration-required", at: "#EXTM3U",
            violation: """
                #EXTM3U
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "media.target-duration-too-small", at: "#EXT-X-TARGETDURATION:0",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:0
                #EXTINF:0,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:1
                #EXTINF:1,
                a.ts
                """
        ),
        RuleCase(
            "media.extinf-exceeds-target-duration", at: "#EXTINF:10.5,",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:10
                #EXTINF:9.009,
                a.ts
                #EXTINF:10.5,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:10
                #EXTINF:9.009,
                a.ts
                #EXTINF:10.499,
                b.ts
                """
        ),
        RuleCase(
            "playlist.tag-repeated", at: "#EXT-X-TARGETDURATION:11",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-TARGETDURATION:11
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:11
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "media.sequence-tag-after-segment", at: "#EXT-X-MEDIA-SEQUENCE:5",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXTINF:10,
                a.ts
                #EXT-X-MEDIA-SEQUENCE:5
                #EXTINF:10,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-MEDIA-SEQUENCE:5
                #EXTINF:10,
                a.ts
                #EXTINF:10,
                b.ts
                """
        ),
        RuleCase(
            "media.discontinuity-sequence-after-discontinuity", at: "#EXT-X-DISCONTINUITY-SEQUENCE:3",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-DISCONTINUITY
                #EXT-X-DISCONTINUITY-SEQUENCE:3
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-DISCONTINUITY-SEQUENCE:3
                #EXT-X-DISCONTINUITY
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "media.byterange-offset-required", at: "#EXT-X-BYTERANGE:2000",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:4
                #EXT-X-TARGETDURATION:10
                #EXT-X-BYTERANGE:1000@0
                #EXTINF:10,
                a.ts
                #EXT-X-BYTERANGE:2000
                #EXTINF:10,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:4
                #EXT-X-TARGETDURATION:10
                #EXT-X-BYTERANGE:1000@0
                #EXTINF:10,
                a.ts
                #EXT-X-BYTERANGE:2000
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "media.byterange-offset-required", "the first segment of a delta update follows a skipped one",
            at: "#EXT-X-BYTERANGE:2000",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:9
                #EXT-X-TARGETDURATION:4
                #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24
                #EXT-X-MEDIA-SEQUENCE:10
                #EXT-X-BYTERANGE:2000
                #EXTINF:4,
                main.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:9
                #EXT-X-TARGETDURATION:4
                #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24
                #EXT-X-MEDIA-SEQUENCE:10
                #EXT-X-SKIP:SKIPPED-SEGMENTS=6
                #EXT-X-BYTERANGE:2000
                #EXTINF:4,
                main.ts
                """
        ),
        RuleCase(
            "media.key-uri-required", at: "#EXT-X-KEY:METHOD=AES-128",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-KEY:METHOD=AES-128
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-KEY:METHOD=AES-128,URI="k.key"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "media.key-none-with-attributes", at: "#EXT-X-KEY:METHOD=NONE,URI=\"k.key\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-KEY:METHOD=AES-128,URI="k.key"
                #EXTINF:10,
                a.ts
                #EXT-X-KEY:METHOD=NONE,URI="k.key"
                #EXTINF:10,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-KEY:METHOD=AES-128,URI="k.key"
                #EXTINF:10,
                a.ts
                #EXT-X-KEY:METHOD=NONE
                #EXTINF:10,
                b.ts
                """
        ),
        RuleCase(
            "media.key-iv-not-allowed", at: "#EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI=\"k.key\",IV=0x0123456789ABCDEF0123456789ABCDEF",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:2
                #EXT-X-TARGETDURATION:10
                #EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="k.key",IV=0x0123456789ABCDEF0123456789ABCDEF
                #EXTINF:10,
                a.mp4
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:2
                #EXT-X-TARGETDURATION:10
                #EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="k.key"
                #EXTINF:10,
                a.mp4
                """
        ),
        RuleCase(
            "media.key-method-unknown", at: "#EXT-X-KEY:METHOD=AES-512,URI=\"k.key\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-KEY:METHOD=AES-512,URI="k.key"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-KEY:METHOD=AES-128,URI="k.key"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "media.map-byterange-offset-required", at: "#EXT-X-MAP:URI=\"main.mp4\",BYTERANGE=\"720\"",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:6
                #EXT-X-TARGETDURATION:10
                #EXT-X-MAP:URI="main.mp4",BYTERANGE="720"
                #EXTINF:10,
                a.mp4
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:6
                #EXT-X-TARGETDURATION:10
                #EXT-X-MAP:URI="main.mp4",BYTERANGE="720@0"
                #EXTINF:10,
                a.mp4
                """
        ),
        RuleCase(
            "media.map-key-iv-required", at: "#EXT-X-MAP:URI=\"init.mp4\"",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:6
                #EXT-X-TARGETDURATION:10
                #EXT-X-KEY:METHOD=AES-128,URI="k.key"
                #EXT-X-MAP:URI="init.mp4"
                #EXTINF:10,
                a.mp4
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:6
                #EXT-X-TARGETDURATION:10
                #EXT-X-MAP:URI="init.mp4"
                #EXT-X-KEY:METHOD=AES-128,URI="k.key"
                #EXTINF:10,
                a.mp4
                """
        ),
        RuleCase(
            "media.map-key-iv-required", "the key has an IV", at: "#EXT-X-MAP:URI=\"init.mp4\"",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:6
                #EXT-X-TARGETDURATION:10
                #EXT-X-KEY:METHOD=AES-128,URI="k.key"
                #EXT-X-MAP:URI="init.mp4"
                #EXTINF:10,
                a.mp4
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:6
                #EXT-X-TARGETDURATION:10
                #EXT-X-KEY:METHOD=AES-128,URI="k.key",IV=0x00000000000000000000000000000001
                #EXT-X-MAP:URI="init.mp4"
                #EXTINF:10,
                a.mp4
                """
        ),
        RuleCase(
            "media.part-inf-required", at: "#EXT-X-PART:DURATION=2,URI=\"a.0.mp4\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART:DURATION=2,URI="a.0.mp4"
                #EXT-X-PART:DURATION=2,URI="a.1.mp4"
                #EXTINF:4,
                a.mp4
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=2
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=6
                #EXT-X-PART:DURATION=2,URI="a.0.mp4"
                #EXT-X-PART:DURATION=2,URI="a.1.mp4"
                #EXTINF:4,
                a.mp4
                """
        ),
        RuleCase(
            "media.part-exceeds-part-target", at: "#EXT-X-PART:DURATION=2.5,URI=\"a.0.mp4\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=2
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=6
                #EXT-X-PART:DURATION=2.5,URI="a.0.mp4"
                #EXT-X-PART:DURATION=1.5,URI="a.1.mp4"
                #EXTINF:4,
                a.mp4
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=2
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=6
                #EXT-X-PART:DURATION=2,URI="a.0.mp4"
                #EXT-X-PART:DURATION=2,URI="a.1.mp4"
                #EXTINF:4,
                a.mp4
                """
        ),
        RuleCase(
            "media.part-too-short", at: "#EXT-X-PART:DURATION=1.6,URI=\"a.0.mp4\"",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=2
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=6
                #EXT-X-PART:DURATION=1.6,URI="a.0.mp4"
                #EXT-X-PART:DURATION=2,URI="a.1.mp4"
                #EXTINF:3.6,
                a.mp4
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=2
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=6
                #EXT-X-PART:DURATION=1.7,URI="a.0.mp4"
                #EXT-X-PART:DURATION=2,URI="a.1.mp4"
                #EXTINF:3.7,
                a.mp4
                """
        ),
        RuleCase(
            "media.part-too-short", "an independent part may be short", at: "#EXT-X-PART:DURATION=1,URI=\"b.0.mp4\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=2
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=6
                #EXTINF:4,
                a.mp4
                #EXT-X-PART:DURATION=1,URI="b.0.mp4"
                #EXT-X-PART:DURATION=2,URI="b.1.mp4"
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=2
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=6
                #EXTINF:4,
                a.mp4
                #EXT-X-PART:DURATION=1,URI="b.0.mp4",INDEPENDENT=YES
                #EXT-X-PART:DURATION=2,URI="b.1.mp4"
                """
        ),
        RuleCase(
            "media.segment-tag-after-part", at: "#EXT-X-DISCONTINUITY",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=2
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=6
                #EXTINF:4,
                a.mp4
                #EXT-X-PART:DURATION=2,URI="b.0.mp4"
                #EXT-X-DISCONTINUITY
                #EXT-X-PART:DURATION=2,URI="b.1.mp4"
                #EXTINF:4,
                b.mp4
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=2
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=6
                #EXTINF:4,
                a.mp4
                #EXT-X-DISCONTINUITY
                #EXT-X-PART:DURATION=2,URI="b.0.mp4"
                #EXT-X-PART:DURATION=2,URI="b.1.mp4"
                #EXTINF:4,
                b.mp4
                """
        ),
        RuleCase(
            "media.gap-part-without-gap", at: "#EXT-X-PART:DURATION=2,URI=\"b.1.mp4\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=2
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=6
                #EXTINF:4,
                a.mp4
                #EXT-X-GAP
                #EXT-X-PART:DURATION=2,URI="b.0.mp4",GAP=YES
                #EXT-X-PART:DURATION=2,URI="b.1.mp4"
                #EXTINF:4,
                b.mp4
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=2
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=6
                #EXTINF:4,
                a.mp4
                #EXT-X-GAP
                #EXT-X-PART:DURATION=2,URI="b.0.mp4",GAP=YES
                #EXT-X-PART:DURATION=2,URI="b.1.mp4",GAP=YES
                #EXTINF:4,
                b.mp4
                """
        ),
        RuleCase(
            "media.i-frames-only-with-parts", at: "#EXT-X-PART:DURATION=2,URI=\"a.0.mp4\"",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:4
                #EXT-X-TARGETDURATION:4
                #EXT-X-I-FRAMES-ONLY
                #EXT-X-PART-INF:PART-TARGET=2
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=6
                #EXT-X-PART:DURATION=2,URI="a.0.mp4"
                #EXT-X-PART:DURATION=2,URI="a.1.mp4"
                #EXTINF:4,
                a.mp4
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:4
                #EXT-X-TARGETDURATION:4
                #EXT-X-I-FRAMES-ONLY
                #EXTINF:4,
                a.mp4
                """
        ),
        RuleCase(
            "media.can-skip-until-too-small", at: "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=23.9",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=23.9
                #EXTINF:4,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24
                #EXTINF:4,
                a.ts
                """
        ),
        RuleCase(
            "media.can-skip-dateranges-without-can-skip-until", at: "#EXT-X-SERVER-CONTROL:CAN-SKIP-DATERANGES=YES",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-SERVER-CONTROL:CAN-SKIP-DATERANGES=YES
                #EXTINF:4,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24,CAN-SKIP-DATERANGES=YES
                #EXTINF:4,
                a.ts
                """
        ),
        RuleCase(
            "media.hold-back-too-small", at: "#EXT-X-SERVER-CONTROL:HOLD-BACK=11.9",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-SERVER-CONTROL:HOLD-BACK=11.9
                #EXTINF:4,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-SERVER-CONTROL:HOLD-BACK=12
                #EXTINF:4,
                a.ts
                """
        ),
        RuleCase(
            "media.part-hold-back-too-small", at: "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=1.9",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=1
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=1.9
                #EXTINF:4,
                a.mp4
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=1
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3
                #EXTINF:4,
                a.mp4
                """
        ),
        RuleCase(
            "media.part-hold-back-below-recommended", at: "#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=2",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=1
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=2
                #EXTINF:4,
                a.mp4
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=1
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3.0
                #EXTINF:4,
                a.mp4
                """
        ),
        RuleCase(
            "media.part-hold-back-required", at: "#EXT-X-PART-INF:PART-TARGET=1",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=1
                #EXTINF:4,
                a.mp4
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=1
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3
                #EXTINF:4,
                a.mp4
                """
        ),
        RuleCase(
            "media.skip-not-advertised", at: "#EXT-X-SKIP:SKIPPED-SEGMENTS=3",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:9
                #EXT-X-TARGETDURATION:4
                #EXT-X-MEDIA-SEQUENCE:10
                #EXT-X-SKIP:SKIPPED-SEGMENTS=3
                #EXTINF:4,
                d.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:9
                #EXT-X-TARGETDURATION:4
                #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24
                #EXT-X-MEDIA-SEQUENCE:10
                #EXT-X-SKIP:SKIPPED-SEGMENTS=3
                #EXTINF:4,
                d.ts
                """
        ),
        RuleCase(
            "media.skip-with-endlist", at: "#EXT-X-SKIP:SKIPPED-SEGMENTS=3",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:9
                #EXT-X-TARGETDURATION:4
                #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24
                #EXT-X-MEDIA-SEQUENCE:10
                #EXT-X-SKIP:SKIPPED-SEGMENTS=3
                #EXTINF:4,
                d.ts
                #EXT-X-ENDLIST
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:9
                #EXT-X-TARGETDURATION:4
                #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24
                #EXT-X-MEDIA-SEQUENCE:10
                #EXT-X-SKIP:SKIPPED-SEGMENTS=3
                #EXTINF:4,
                d.ts
                """
        ),
        RuleCase(
            "media.vod-without-endlist", at: "#EXT-X-PLAYLIST-TYPE:VOD",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PLAYLIST-TYPE:VOD
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PLAYLIST-TYPE:VOD
                #EXTINF:10,
                a.ts
                #EXT-X-ENDLIST
                """
        ),
        RuleCase(
            "media.preload-hint-with-endlist", at: "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"b.0.mp4\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=2
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=6
                #EXTINF:4,
                a.mp4
                #EXT-X-PRELOAD-HINT:TYPE=PART,URI="b.0.mp4"
                #EXT-X-ENDLIST
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=2
                #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=6
                #EXTINF:4,
                a.mp4
                #EXT-X-PRELOAD-HINT:TYPE=PART,URI="b.0.mp4"
                """
        ),
        RuleCase(
            "media.discontinuity-without-program-date-time", at: "#EXT-X-DISCONTINUITY",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXTINF:10,
                a.ts
                #EXT-X-DISCONTINUITY
                #EXTINF:10,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXTINF:10,
                a.ts
                #EXT-X-DISCONTINUITY
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T06:00:00.000Z
                #EXTINF:10,
                b.ts
                """
        ),
        RuleCase(
            "media.program-date-time-without-time-zone", at: "#EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000+01:00
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "media.target-duration-changed", at: "#EXT-X-TARGETDURATION:10",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-MEDIA-SEQUENCE:1
                #EXTINF:6,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:6
                #EXT-X-MEDIA-SEQUENCE:1
                #EXTINF:6,
                b.ts
                """,
            previous: """
                #EXTM3U
                #EXT-X-TARGETDURATION:6
                #EXTINF:6,
                a.ts
                #EXTINF:6,
                b.ts
                """
        ),
        RuleCase(
            "media.media-sequence-decreased", at: "#EXT-X-MEDIA-SEQUENCE:9",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:6
                #EXT-X-MEDIA-SEQUENCE:9
                #EXTINF:6,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:6
                #EXT-X-MEDIA-SEQUENCE:11
                #EXTINF:6,
                b.ts
                """,
            previous: """
                #EXTM3U
                #EXT-X-TARGETDURATION:6
                #EXT-X-MEDIA-SEQUENCE:10
                #EXTINF:6,
                a.ts
                #EXTINF:6,
                b.ts
                """
        ),
        RuleCase(
            "media.discontinuity-sequence-decreased", at: "#EXT-X-DISCONTINUITY-SEQUENCE:1",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:6
                #EXT-X-MEDIA-SEQUENCE:11
                #EXT-X-DISCONTINUITY-SEQUENCE:1
                #EXTINF:6,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:6
                #EXT-X-MEDIA-SEQUENCE:11
                #EXT-X-DISCONTINUITY-SEQUENCE:3
                #EXTINF:6,
                b.ts
                """,
            previous: """
                #EXTM3U
                #EXT-X-TARGETDURATION:6
                #EXT-X-MEDIA-SEQUENCE:10
                #EXT-X-DISCONTINUITY-SEQUENCE:2
                #EXT-X-DISCONTINUITY
                #EXTINF:6,
                a.ts
                #EXTINF:6,
                b.ts
                """
        ),
        RuleCase(
            "playlist.version-too-low", "floating-point EXTINF", at: "#EXTINF:9.009,",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXTINF:9.009,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:10
                #EXTINF:9.009,
                a.ts
                """
        ),
        RuleCase(
            "playlist.version-too-low", "EXT-X-MAP outside an I-frame playlist needs 6", at: "#EXT-X-MAP:URI=\"init.mp4\"",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:5
                #EXT-X-TARGETDURATION:10
                #EXT-X-MAP:URI="init.mp4"
                #EXTINF:10,
                a.mp4
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:5
                #EXT-X-TARGETDURATION:10
                #EXT-X-I-FRAMES-ONLY
                #EXT-X-MAP:URI="init.mp4"
                #EXTINF:10,
                a.mp4
                """
        ),
        RuleCase(
            "playlist.version-too-low", "EXT-X-BYTERANGE needs 4", at: "#EXT-X-BYTERANGE:1000@0",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:10
                #EXT-X-BYTERANGE:1000@0
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:4
                #EXT-X-TARGETDURATION:10
                #EXT-X-BYTERANGE:1000@0
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "playlist.version-too-low", "KEYFORMAT needs 5", at: "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://k\",KEYFORMAT=\"com.apple.streamingkeydelivery\"",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:4
                #EXT-X-TARGETDURATION:10
                #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://k",KEYFORMAT="com.apple.streamingkeydelivery"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:5
                #EXT-X-TARGETDURATION:10
                #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://k",KEYFORMAT="com.apple.streamingkeydelivery"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "playlist.version-too-low", "EXT-X-DEFINE needs 8", at: "#EXT-X-DEFINE:NAME=\"base\",VALUE=\"https://cdn.example.com\"",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:7
                #EXT-X-TARGETDURATION:10
                #EXT-X-DEFINE:NAME="base",VALUE="https://cdn.example.com"
                #EXTINF:10,
                {$base}/a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:8
                #EXT-X-TARGETDURATION:10
                #EXT-X-DEFINE:NAME="base",VALUE="https://cdn.example.com"
                #EXTINF:10,
                {$base}/a.ts
                """
        ),
    ]
}
