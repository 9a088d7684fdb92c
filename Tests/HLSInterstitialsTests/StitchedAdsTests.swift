import HLSInterstitials
import HLSPlaylist
import MediaTime
import Testing

/// Ads stitched into the primary playlist (S1.5): their item-time ranges are sums of EXTINF
/// durations (S1.6), and coordination runs on content time, the item's time with them removed.
@Suite("StitchedAds")
struct StitchedAdsTests {
    @Test("a CUE-OUT / CUE-IN break spans exactly the EXTINF durations of the segments between the markers")
    func cueOutCueIn() throws {
        // Content 0–18, three ad segments (4.004 + 5.005 + 6.006 = 15.015), content again.
        let playlist = try Fixture.playlist(segments: ["6", "6", "6", "4.004", "5.005", "6.006", "6", "6"], segmentTags: [
            3: ["#EXT-X-DISCONTINUITY", "#EXT-X-CUE-OUT:15.015"],
            4: ["#EXT-X-CUE-OUT-CONT:4.004/15.015"],
            5: ["#EXT-X-CUE-OUT-CONT:9.009/15.015"],
            6: ["#EXT-X-DISCONTINUITY", "#EXT-X-CUE-IN"],
        ])
        let ads = StitchedAds(playlist: playlist)
        #expect(ads.ranges == [range("18", "33.015")])
        #expect(ads.itemDuration == time("45.015"))
        #expect(ads.contentDuration == time("30"))
    }

    @Test("content time removes the ads before it and stands still inside one; item time puts them back")
    func contentTime() throws {
        let ads = StitchedAds(playlist: try Fixture.playlist(segments: ["6", "6", "6", "5", "5", "5", "5", "6", "6"], segmentTags: [
            3: ["#EXT-X-CUE-OUT:20"], 7: ["#EXT-X-CUE-IN"],
        ]))
        #expect(ads.ranges == [range("18", "38")])
        #expect(ads.contentTime(forItemTime: time("10")) == time("10"))
        #expect(ads.contentTime(forItemTime: time("18")) == time("18"))
        #expect(ads.contentTime(forItemTime: time("25.5")) == time("18"))
        #expect(ads.contentTime(forItemTime: time("38")) == time("18"))
        #expect(ads.contentTime(forItemTime: time("44.25")) == time("24.25"))
        #expect(ads.itemTime(forContentTime: time("10")) == time("10"))
        #expect(ads.itemTime(forContentTime: time("18")) == time("18"), "at an ad's content time, the item time before it, so the ad plays next")
        #expect(ads.itemTime(forContentTime: time("18.5")) == time("38.5"))
        #expect(ads.itemTime(forContentTime: time("24.25")) == time("44.25"))
        #expect(ads.range(containing: time("25.5")) == range("18", "38"))
        #expect(ads.range(containing: time("38")) == nil)
    }

    @Test("two breaks are removed from content time one after the other")
    func twoBreaks() throws {
        let ads = StitchedAds(playlist: try Fixture.playlist(segments: ["6", "6", "6", "6", "6", "6", "6", "6"], segmentTags: [
            1: ["#EXT-X-CUE-OUT:6"], 2: ["#EXT-X-CUE-IN"], 4: ["#EXT-X-CUE-OUT:12"], 6: ["#EXT-X-CUE-IN"],
        ]))
        #expect(ads.ranges == [range("6", "12"), range("24", "36")])
        #expect(ads.contentDuration == time("30"))
        #expect(ads.contentTime(forItemTime: time("40")) == time("22"))
        #expect(ads.itemTime(forContentTime: time("22")) == time("40"))
        #expect(ads.itemTime(forContentTime: time("18")) == time("24"))
    }

    @Test("a CUE-OUT with a duration and no CUE-IN ends at the first segment boundary that covers the duration")
    func cueOutWithoutCueIn() throws {
        let exact = StitchedAds(playlist: try Fixture.playlist(segments: ["6", "6", "6", "5", "5", "5", "6", "6"], segmentTags: [
            3: ["#EXT-X-CUE-OUT:DURATION=15"],
        ]))
        #expect(exact.ranges == [range("18", "33")])
        let inside = StitchedAds(playlist: try Fixture.playlist(segmentTags: [3: ["#EXT-X-CUE-OUT:15"]]))
        #expect(inside.ranges == [range("18", "36")], "18 + 15 = 33 falls inside the segment 30–36")
    }

    @Test("a CUE-OUT without a duration or a CUE-IN runs to the end of the item")
    func openEnded() throws {
        let ads = StitchedAds(playlist: try Fixture.playlist(segmentTags: [8: ["#EXT-X-CUE-OUT"]]))
        #expect(ads.ranges == [range("48", "60")])
    }

    @Test("a CUE-IN after the last segment closes the break at the end")
    func trailingCueIn() throws {
        let ads = StitchedAds(playlist: try Fixture.playlist(segmentTags: [9: ["#EXT-X-CUE-OUT"]], trailingTags: ["#EXT-X-CUE-IN"]))
        #expect(ads.ranges == [range("54", "60")])
    }

    @Test("SCTE35-OUT date ranges with a duration give the break, aligned to segment boundaries")
    func scte35WithDuration() throws {
        let ads = StitchedAds(playlist: try Fixture.playlist(tags: [
            "#EXT-X-DATERANGE:ID=\"splice-1\",START-DATE=\"\(Fixture.dateText("12"))\",DURATION=18,SCTE35-OUT=0xFC30",
        ]))
        #expect(ads.ranges == [range("12", "30")])
        #expect(ads.contentDuration == time("42"))
    }

    @Test("a SCTE35-OUT range closed by a same-ID SCTE35-IN tag with its DURATION gives the break")
    func scte35OutIn() throws {
        let ads = StitchedAds(playlist: try Fixture.playlist(
            tags: ["#EXT-X-DATERANGE:ID=\"splice-2\",START-DATE=\"\(Fixture.dateText("24"))\",PLANNED-DURATION=30,SCTE35-OUT=0xFC30"],
            segmentTags: [8: ["#EXT-X-DATERANGE:ID=\"splice-2\",DURATION=24,SCTE35-IN=0xFC31"]]
        ))
        #expect(ads.ranges == [range("24", "48")])
    }

    @Test("a SCTE35-OUT range known only by its PLANNED-DURATION uses it")
    func scte35Planned() throws {
        let ads = StitchedAds(playlist: try Fixture.playlist(tags: [
            "#EXT-X-DATERANGE:ID=\"splice-3\",START-DATE=\"\(Fixture.dateText("36.5"))\",PLANNED-DURATION=12,SCTE35-OUT=0xFC30",
        ]))
        #expect(ads.ranges == [range("36", "48")], "36.5 snaps to 36 and 48.5 to 48")
    }

    @Test("a playlist without markers or SCTE-35 ranges has no stitched ads")
    func none() throws {
        let ads = StitchedAds(playlist: try Fixture.playlist(tags: [Fixture.interstitial("ad", at: "30", "DURATION=10")]))
        #expect(ads.ranges.isEmpty)
        #expect(ads.contentDuration == time("60"))
        #expect(ads.contentTime(forItemTime: time("42")) == time("42"))
        #expect(ads.itemTime(forContentTime: time("42")) == time("42"))
    }

    @Test("ranges given directly are sorted, empty ones dropped and overlapping ones merged")
    func givenRanges() {
        let ads = StitchedAds(ranges: [range("30", "40"), range("5", "10"), range("35", "45"), range("50", "50")], itemDuration: time("60"))
        #expect(ads.ranges == [range("5", "10"), range("30", "45")])
        #expect(ads.contentDuration == time("40"))
    }
}

@Suite("Stitched ads in a live window that slid past the CUE-OUT")
struct StitchedAdsContinuationTests {
    static func window(_ lines: [String]) -> MediaPlaylist {
        try! MediaPlaylist(parsing: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:100\n" + lines.joined(separator: "\n") + "\n")
    }

    @Test("a break in progress at the window's start is found from EXT-X-CUE-OUT-CONT and ends at its CUE-IN")
    func continuationThenCueIn() {
        let playlist = Self.window([
            "#EXT-X-CUE-OUT-CONT:ElapsedTime=8,Duration=20", "#EXTINF:4,", "ad-2.ts",
            "#EXT-X-CUE-OUT-CONT:ElapsedTime=12,Duration=20", "#EXTINF:4,", "ad-3.ts",
            "#EXT-X-CUE-OUT-CONT:ElapsedTime=16,Duration=20", "#EXTINF:4,", "ad-4.ts",
            "#EXT-X-CUE-IN", "#EXTINF:4,", "c1.ts", "#EXTINF:4,", "c2.ts",
        ])
        let ads = StitchedAds(playlist: playlist)
        #expect(ads.ranges == [MediaTimeRange(start: .zero, end: MediaTime(seconds: 12))])
        #expect(ads.contentTime(forItemTime: MediaTime(seconds: 14)) == MediaTime(seconds: 2))
    }

    @Test("without a CUE-IN the break ends its duration after it began, before the window")
    func continuationWithoutCueIn() {
        let playlist = Self.window([
            "#EXT-X-CUE-OUT-CONT:8/20", "#EXTINF:4,", "ad-2.ts",
            "#EXTINF:4,", "ad-3.ts", "#EXTINF:4,", "ad-4.ts", "#EXTINF:4,", "c1.ts", "#EXTINF:4,", "c2.ts",
        ])
        // The break began 8 s before the window and lasts 20 s: it covers the first 12 s.
        #expect(StitchedAds(playlist: playlist).ranges == [MediaTimeRange(start: .zero, end: MediaTime(seconds: 12))])
    }
}
