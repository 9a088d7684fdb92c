import HLSPlaylist
import MediaTime
import Testing

@Suite("PlaylistValidator: date range rules")
struct PlaylistValidatorDateRangeTests {
    @Test("a date range rule is reported on the tag that breaks it", arguments: RuleCase.dateRange)
    func violation(_ rule: RuleCase) throws { try rule.expectViolation() }

    @Test("a near miss of a date range rule is clean", arguments: RuleCase.dateRange)
    func nearMiss(_ rule: RuleCase) throws { try rule.expectNearMissIsClean() }

    @Test("a negative DURATION set on the model is reported without a line")
    func negativeDurationInModel() throws {
        var playlist = try MediaPlaylist(parsing: """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
            #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z",DURATION=10
            #EXTINF:10,
            a.ts
            """)
        playlist.segments[0].dateRanges[0].plannedDuration = MediaTime(seconds: -3)
        let diagnostics = PlaylistValidator.validate(playlist)
        #expect(diagnostics.map(\.ruleID) == ["daterange.duration-negative"])
        #expect(diagnostics.first?.line == nil)
        #expect(diagnostics.first?.message.contains("PLANNED-DURATION=-3") == true)
    }

    @Test("a later tag may add attributes to a date range, in the same playlist and across reloads")
    func laterTagsMayAddAttributes() throws {
        let previous = try MediaPlaylist(parsing: """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
            #EXT-X-DATERANGE:ID="break",CLASS="com.example.break",START-DATE="2026-11-30T05:00:05.000Z",PLANNED-DURATION=30
            #EXTINF:10,
            a.ts
            """)
        let current = """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
            #EXT-X-DATERANGE:ID="break",CLASS="com.example.break",START-DATE="2026-11-30T05:00:05.000Z",PLANNED-DURATION=30
            #EXTINF:10,
            a.ts
            #EXT-X-DATERANGE:ID="break",DURATION=25.000,END-DATE="2026-11-30T06:00:30+01:00"
            #EXTINF:10,
            b.ts
            """
        #expect(PlaylistValidator.validate(Array(current.utf8), previous: previous).isEmpty)
    }
}

extension RuleCase {
    static let dateRange: [RuleCase] = [
        RuleCase(
            "daterange.id-required", at: "#EXT-X-DATERANGE:START-DATE=\"2026-11-30T05:00:05.000Z\",DURATION=10",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:START-DATE="2026-11-30T05:00:05.000Z",DURATION=10
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z",DURATION=10
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "daterange.id-required", "an empty ID", at: "#EXT-X-DATERANGE:ID=\"\",START-DATE=\"2026-11-30T05:00:05.000Z\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="",START-DATE="2026-11-30T05:00:05.000Z"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="0",START-DATE="2026-11-30T05:00:05.000Z"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "daterange.id-reused", at: "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-11-30T05:00:15.000Z\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z"
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:15.000Z"
                #EXTINF:10,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z"
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="b",START-DATE="2026-11-30T05:00:15.000Z"
                #EXTINF:10,
                b.ts
                """
        ),
        RuleCase(
            "daterange.attribute-changed", at: "#EXT-X-DATERANGE:ID=\"a\",DURATION=12",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z",DURATION=10
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="a",DURATION=12
                #EXTINF:10,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z",DURATION=10
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="a",DURATION=10.0,END-DATE="2026-11-30T05:00:15.000Z"
                #EXTINF:10,
                b.ts
                """
        ),
        RuleCase(
            "daterange.start-date-required", at: "#EXT-X-DATERANGE:ID=\"a\",DURATION=10",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",DURATION=10
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z"
                #EXT-X-DATERANGE:ID="a",DURATION=10
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "daterange.end-before-start", at: "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-11-30T05:00:05.000Z\",END-DATE=\"2026-11-30T05:00:04.999Z\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z",END-DATE="2026-11-30T05:00:04.999Z"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z",END-DATE="2026-11-30T05:00:05.000Z"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "daterange.duration-negative", at: "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-11-30T05:00:05.000Z\",DURATION=-1",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z",DURATION=-1
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z",DURATION=0
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "daterange.duration-end-date-mismatch",
            at: "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-11-30T05:00:05.000Z\",DURATION=10,END-DATE=\"2026-11-30T05:00:15.001Z\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z",DURATION=10,END-DATE="2026-11-30T05:00:15.001Z"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z",DURATION=10,END-DATE="2026-11-30T05:00:15.000Z"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "daterange.end-on-next-requires-class", at: "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-11-30T05:00:00.000Z\",END-ON-NEXT=YES",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z",END-ON-NEXT=YES
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",CLASS="com.example.chapter",START-DATE="2026-11-30T05:00:00.000Z",END-ON-NEXT=YES
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "daterange.end-on-next-with-end", at: "#EXT-X-DATERANGE:ID=\"a\",DURATION=10",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",CLASS="com.example.chapter",START-DATE="2026-11-30T05:00:00.000Z",END-ON-NEXT=YES
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="a",DURATION=10
                #EXTINF:10,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",CLASS="com.example.chapter",START-DATE="2026-11-30T05:00:00.000Z",END-ON-NEXT=YES
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="b",CLASS="com.example.chapter",START-DATE="2026-11-30T05:00:10.000Z",END-ON-NEXT=YES
                #EXTINF:10,
                b.ts
                """
        ),
        RuleCase(
            "daterange.end-on-next-overlap",
            at: "#EXT-X-DATERANGE:ID=\"c\",CLASS=\"com.example.chapter\",START-DATE=\"2026-11-30T05:00:10.000Z\",END-ON-NEXT=YES",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",CLASS="com.example.chapter",START-DATE="2026-11-30T05:00:00.000Z",END-ON-NEXT=YES
                #EXT-X-DATERANGE:ID="b",CLASS="com.example.chapter",START-DATE="2026-11-30T05:00:05.000Z",DURATION=10
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="c",CLASS="com.example.chapter",START-DATE="2026-11-30T05:00:10.000Z",END-ON-NEXT=YES
                #EXTINF:10,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",CLASS="com.example.chapter",START-DATE="2026-11-30T05:00:00.000Z",END-ON-NEXT=YES
                #EXT-X-DATERANGE:ID="b",CLASS="com.example.chapter",START-DATE="2026-11-30T05:00:05.000Z",DURATION=5
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="c",CLASS="com.example.chapter",START-DATE="2026-11-30T05:00:10.000Z",END-ON-NEXT=YES
                #EXTINF:10,
                b.ts
                """
        ),
        RuleCase(
            "daterange.end-on-next-overlap", "two ranges of the class start together",
            at: "#EXT-X-DATERANGE:ID=\"b\",CLASS=\"com.example.chapter\",START-DATE=\"2026-11-30T05:00:00.000Z\",END-ON-NEXT=YES",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",CLASS="com.example.chapter",START-DATE="2026-11-30T05:00:00.000Z",END-ON-NEXT=YES
                #EXT-X-DATERANGE:ID="b",CLASS="com.example.chapter",START-DATE="2026-11-30T05:00:00.000Z",END-ON-NEXT=YES
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",CLASS="com.example.chapter",START-DATE="2026-11-30T05:00:00.000Z",END-ON-NEXT=YES
                #EXT-X-DATERANGE:ID="b",CLASS="com.example.score",START-DATE="2026-11-30T05:00:00.000Z",END-ON-NEXT=YES
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "daterange.cue-pre-and-post", at: "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-11-30T05:00:00.000Z\",CUE=\"PRE,POST\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z",CUE="PRE,POST"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z",CUE="PRE,ONCE"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "daterange.cue-unknown-token", at: "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-11-30T05:00:00.000Z\",CUE=\"PRE,MID\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z",CUE="PRE,MID"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z",CUE="PRE"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "daterange.client-attribute-name", "set on the model", at: nil,
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z",X-COM-EXAMPLE-PLACEHOLDER="x"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z",X-COM-EXAMPLE-AD-ID="x"
                #EXTINF:10,
                a.ts
                """,
            edit: { playlist in
                // Rename the client attribute the way an author's code might: the parsed X-COM-EXAMPLE-PLACEHOLDER
                // becomes lower case; the near miss's X-COM-EXAMPLE-AD-ID keeps a legal name.
                let name = playlist.segments[0].dateRanges[0].clientAttributes[0].name
                if name == "X-COM-EXAMPLE-PLACEHOLDER" {
                    playlist.segments[0].dateRanges[0].clientAttributes[0].name = "X-com.example.ad-id"
                }
            }
        ),
        RuleCase(
            "daterange.client-attribute-value", at: "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-11-30T05:00:00.000Z\",X-COM-EXAMPLE-KIND=BREAK",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z",X-COM-EXAMPLE-KIND=BREAK
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z",X-COM-EXAMPLE-KIND="BREAK",X-COM-EXAMPLE-N=-2.5
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "daterange.unknown-attribute", at: "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-11-30T05:00:00.000Z\",AD-ID=\"xyz\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z",AD-ID="xyz"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z",X-AD-ID="xyz"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "daterange.legacy-x-cue", at: "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-11-30T05:00:00.000Z\",X-CUE=\"PRE\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z",X-CUE="PRE"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z",CUE="PRE"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "daterange.date-without-time-zone", at: "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-11-30T05:00:00.000\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000"
                #EXTINF:10,
                a.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T06:00:00.000+01:00"
                #EXTINF:10,
                a.ts
                """
        ),
        RuleCase(
            "daterange.program-date-time-required", at: "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-11-30T05:00:00.000Z\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z"
                #EXTINF:10,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:00.000Z"
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXTINF:10,
                b.ts
                """
        ),
        RuleCase(
            "daterange.attribute-changed-since-previous", at: "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-11-30T05:00:05.000Z\",DURATION=12",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-MEDIA-SEQUENCE:1
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z",DURATION=12
                #EXTINF:10,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-MEDIA-SEQUENCE:1
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z",DURATION=10
                #EXT-X-DATERANGE:ID="a",X-COM-EXAMPLE-SEEN="yes"
                #EXTINF:10,
                b.ts
                """,
            previous: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T04:59:50.000Z
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z",DURATION=10
                #EXTINF:10,
                b.ts
                """
        ),
        RuleCase(
            "daterange.attribute-changed-since-previous", "an attribute is lost",
            at: "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-11-30T05:00:05.000Z\"",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-MEDIA-SEQUENCE:1
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z"
                #EXTINF:10,
                b.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-MEDIA-SEQUENCE:1
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z"
                #EXT-X-DATERANGE:ID="a",DURATION=10
                #EXTINF:10,
                b.ts
                """,
            previous: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T04:59:50.000Z
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:05.000Z"
                #EXT-X-DATERANGE:ID="a",DURATION=10
                #EXTINF:10,
                b.ts
                """
        ),
        RuleCase(
            "daterange.removed-while-mapped", at: "b.ts",
            violation: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-MEDIA-SEQUENCE:1
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:10.000Z
                #EXTINF:10,
                b.ts
                #EXTINF:10,
                c.ts
                #EXTINF:10,
                d.ts
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-MEDIA-SEQUENCE:3
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:30.000Z
                #EXTINF:10,
                d.ts
                #EXTINF:10,
                e.ts
                #EXTINF:10,
                f.ts
                """,
            previous: """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00.000Z
                #EXTINF:10,
                a.ts
                #EXT-X-DATERANGE:ID="a",START-DATE="2026-11-30T05:00:15.000Z",DURATION=10
                #EXTINF:10,
                b.ts
                #EXTINF:10,
                c.ts
                """
        ),
    ]
}
