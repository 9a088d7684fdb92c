import HLSPlaylist
import MediaTime
import TestSupport
import Testing

/// Issue 12, item 4: hostile input must cost time linear in its size. Each test times the same work
/// on an input and on one four times larger: linear work gives a ratio near 4, quadratic near 16;
/// the bound of 10 leaves room for a busy machine. `make test` runs the `…ScalingTests` suites on
/// their own, after the rest, so that parallel tests do not skew the times.
@Suite("Parser work grows linearly with the input")
struct ParserScalingTests {
    private static func oneTag(clientAttributes count: Int) -> String {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00Z\n"
        text += "#EXT-X-DATERANGE:ID=\"big\",START-DATE=\"2026-11-30T05:00:00Z\""
        for index in 0..<count { text += ",X-A\(index)=\(index)" }
        text += "\n#EXTINF:6,\nseg.ts\n"
        return text
    }

    private static func sameIDTags(_ count: Int) -> String {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00Z\n"
        for index in 0..<count {
            text += "#EXT-X-DATERANGE:ID=\"one\",START-DATE=\"2026-11-30T05:00:00Z\",X-A\(index)=\"\(index)\"\n"
        }
        text += "#EXTINF:6,\nseg.ts\n"
        return text
    }

    @Test("one DATERANGE with many client attributes parses in time linear in their number")
    func manyClientAttributes() throws {
        let small = Self.oneTag(clientAttributes: 5_000)
        let large = Self.oneTag(clientAttributes: 20_000)
        let parsed = try MediaPlaylist(parsing: large)
        #expect(parsed.dateRanges.first?.clientAttributes.count == 20_000)
        let ratio = try growthRatio(small: 1, large: 4) { size in
            _ = try MediaPlaylist(parsing: size == 1 ? small : large)
        }
        #expect(ratio < 10, "4× the attributes took \(ratio)× the time")
    }

    @Test("many DATERANGE tags with one ID consolidate and validate in time linear in their number")
    func manySameIDTags() throws {
        let small = try MediaPlaylist(parsing: Self.sameIDTags(1_000))
        let large = try MediaPlaylist(parsing: Self.sameIDTags(4_000))
        let consolidated = large.consolidatedDateRanges
        #expect(consolidated.count == 1)
        #expect(consolidated.first?.clientAttributes.count == 4_000, "each tag adds its attribute")
        let ratio = growthRatio(small: 1, large: 4) { size in
            _ = (size == 1 ? small : large).consolidatedDateRanges
        }
        #expect(ratio < 10, "4× the tags took \(ratio)× the time to consolidate")
        let smallText = Array(Self.sameIDTags(1_000).utf8)
        let largeText = Array(Self.sameIDTags(4_000).utf8)
        let validation = growthRatio(small: 1, large: 4, runs: 2) { size in
            _ = PlaylistValidator.validate(size == 1 ? smallText : largeText)
        }
        #expect(validation < 10, "4× the tags took \(validation)× the time to validate")
    }

    @Test("a later tag with the same ID keeps its new attributes when it conflicts on another, which keeps its first value")
    func conflictKeepsNewAttributes() throws {
        let playlist = try MediaPlaylist(parsing: """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T05:00:00Z
            #EXT-X-DATERANGE:ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-30T05:00:00Z",DURATION=15,X-ASSET-URI="https://a/1.m3u8"
            #EXT-X-DATERANGE:ID="ad",START-DATE="2026-11-30T05:00:00Z",DURATION=20,X-RESUME-OFFSET=0,X-COM-EXAMPLE-NOTE="new"
            #EXTINF:6,
            seg.ts

            """)
        let (ranges, conflicts) = playlist.consolidatingDateRanges()
        let range = try #require(ranges.first)
        #expect(range.duration?.seconds == 15, "the conflicting attribute keeps its first value")
        #expect(range.resumeOffset?.seconds == 0, "a new typed attribute of the later tag is kept")
        #expect(range.clientAttribute(named: "X-COM-EXAMPLE-NOTE") == .quotedString("new"))
        #expect(conflicts.map(\.attribute) == ["DURATION"])
        #expect(conflicts.first?.earlierValue == "15")
        #expect(conflicts.first?.laterValue == "20")
    }
}
