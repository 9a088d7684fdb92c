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

    @Test("a break in progress at the window's start is found from EXT-X-CUE-OUT-CONT: it began ElapsedTime before the window and ends at its CUE-IN")
    func continuationThenCueIn() {
        let playlist = Self.window([
            "#EXT-X-CUE-OUT-CONT:ElapsedTime=8,Duration=20", "#EXTINF:4,", "ad-2.ts",
            "#EXT-X-CUE-OUT-CONT:ElapsedTime=12,Duration=20", "#EXTINF:4,", "ad-3.ts",
            "#EXT-X-CUE-OUT-CONT:ElapsedTime=16,Duration=20", "#EXTINF:4,", "ad-4.ts",
            "#EXT-X-CUE-IN", "#EXTINF:4,", "c1.ts", "#EXTINF:4,", "c2.ts",
        ])
        let ads = StitchedAds(playlist: playlist)
        #expect(ads.ranges == [MediaTimeRange(start: MediaTime(seconds: -8), end: MediaTime(seconds: 12))])
        #expect(ads.contentTime(forItemTime: MediaTime(seconds: 14)) == MediaTime(seconds: -6), "the whole 20 s break is removed")
        #expect(ads.contentDuration == MediaTime(seconds: 8), "the window's 20 s less the 12 s of ads in it")
    }

    @Test("without a CUE-IN the break ends its duration after it began, before the window")
    func continuationWithoutCueIn() {
        let playlist = Self.window([
            "#EXT-X-CUE-OUT-CONT:8/20", "#EXTINF:4,", "ad-2.ts",
            "#EXTINF:4,", "ad-3.ts", "#EXTINF:4,", "ad-4.ts", "#EXTINF:4,", "c1.ts", "#EXTINF:4,", "c2.ts",
        ])
        // The break began 8 s before the window and lasts 20 s: it covers the first 12 s.
        #expect(StitchedAds(playlist: playlist).ranges == [MediaTimeRange(start: MediaTime(seconds: -8), end: MediaTime(seconds: 12))])
    }
}

/// A live stream as a server publishes it: segments by media sequence number, each window the six
/// latest. Content segments last 4 s, ad segments 5 s: a 15 s break at 16 s (sequence 104–106)
/// and a 10 s one at 51 s (112–113), each opened by EXT-X-CUE-OUT, continued by
/// EXT-X-CUE-OUT-CONT and closed by EXT-X-CUE-IN, with program date-times throughout.
@Suite("Stitched ads across live reloads")
struct StitchedAdsLiveReloadTests {
    static let first = 100
    static let stream: [(duration: String, tags: [String])] = {
        var segments: [(String, [String])] = []
        for number in 100...120 {
            switch number {
            case 104: segments.append(("5", ["#EXT-X-DISCONTINUITY", "#EXT-X-CUE-OUT:15"]))
            case 105: segments.append(("5", ["#EXT-X-CUE-OUT-CONT:ElapsedTime=5,Duration=15"]))
            case 106: segments.append(("5", ["#EXT-X-CUE-OUT-CONT:ElapsedTime=10,Duration=15"]))
            case 107, 114: segments.append(("4", ["#EXT-X-DISCONTINUITY", "#EXT-X-CUE-IN"]))
            case 112: segments.append(("5", ["#EXT-X-DISCONTINUITY", "#EXT-X-CUE-OUT:10"]))
            case 113: segments.append(("5", ["#EXT-X-CUE-OUT-CONT:ElapsedTime=5,Duration=10"]))
            default: segments.append(("4", []))
            }
        }
        return segments
    }()

    /// The item time of a segment's start, from 0 at sequence 100.
    static func start(of number: Int) -> MediaTime {
        stream[..<(number - first)].reduce(MediaTime.zero) { $0 + MediaTime(seconds: Int64($1.duration)!) }
    }

    /// The window of the six segments from `number` (the first carries its program date-time).
    static func window(from number: Int, count: Int = 6) -> MediaPlaylist {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:5", "#EXT-X-MEDIA-SEQUENCE:\(number)"]
        for index in number..<(number + count) {
            let segment = stream[index - first]
            lines += segment.tags.filter { $0 != "#EXT-X-DISCONTINUITY" || index > number }
            lines.append("#EXT-X-PROGRAM-DATE-TIME:\(Fixture.dateText(start(of: index).decimalString()))")
            lines += ["#EXTINF:\(segment.duration),", "s\(index).ts"]
        }
        return try! MediaPlaylist(parsing: lines.joined(separator: "\n") + "\n")
    }

    static let firstBreak = MediaTimeRange(start: MediaTime(seconds: 16), end: MediaTime(seconds: 31))
    static let secondBreak = MediaTimeRange(start: MediaTime(seconds: 51), end: MediaTime(seconds: 61))

    @Test("a break seen whole keeps its start and length as its segments leave the window, and content time stays where it was")
    func slidingWindowKeepsRanges() {
        var timeline = PrimaryTimeline(playlist: Self.window(from: 102), firstSegmentStart: Self.start(of: 102))
        var ads = StitchedAds(playlist: Self.window(from: 102), timeline: timeline)
        #expect(ads.ranges == [Self.firstBreak], "CUE-OUT at 16 s, CUE-IN at 31 s")
        for number in 103...115 {
            let playlist = Self.window(from: number)
            timeline = PrimaryTimeline(playlist: playlist, continuing: timeline)
            ads = StitchedAds(playlist: playlist, timeline: timeline, continuing: ads)
            #expect(ads.ranges.first == Self.firstBreak, "window from \(number)")
            #expect(ads.contentTime(forItemTime: MediaTime(seconds: 40)) == MediaTime(seconds: 25), "window from \(number)")
            if number >= 109 { #expect(ads.ranges.dropFirst().first == Self.secondBreak, "window from \(number)") }
            // Without what earlier windows showed, the same window cuts the breaks (or forgets them).
            let alone = StitchedAds(playlist: playlist, timeline: timeline)
            if (105...106).contains(number) { #expect(alone.ranges.first == Self.firstBreak, "from its CUE-OUT-CONT") }
            if number >= 107 { #expect(!alone.ranges.contains(Self.firstBreak)) }
        }
        #expect(ads.ranges == [Self.firstBreak, Self.secondBreak])
        #expect(ads.contentTime(forItemTime: MediaTime(seconds: 70)) == MediaTime(seconds: 45))
    }

    @Test("a break at the live edge lasts its CUE-OUT duration until its CUE-IN confirms the end")
    func liveEdgeBreak() {
        var timeline = PrimaryTimeline(playlist: Self.window(from: 100, count: 5))
        var ads = StitchedAds(playlist: Self.window(from: 100, count: 5), timeline: timeline)
        #expect(ads.ranges == [MediaTimeRange(start: MediaTime(seconds: 16), end: MediaTime(seconds: 31))], "only its first segment is listed")
        for count in 6...8 {
            let playlist = Self.window(from: 100, count: count)
            timeline = PrimaryTimeline(playlist: playlist, continuing: timeline)
            ads = StitchedAds(playlist: playlist, timeline: timeline, continuing: ads)
            #expect(ads.ranges == [Self.firstBreak], "\(count) segments")
        }
    }

    @Test("a participant joining mid-break gets the break's whole range from the cue, as those who saw it whole have it")
    func joinMidBreak() {
        for number in [105, 106] {
            let playlist = Self.window(from: number)
            // A player's live timeline, placed by program date-time.
            let timeline = PrimaryTimeline(playlist: playlist, firstSegmentStart: Self.start(of: number))
            let ads = StitchedAds(playlist: playlist, timeline: timeline)
            #expect(ads.ranges.first == Self.firstBreak, "joined at \(number)")
            #expect(ads.contentTime(forItemTime: MediaTime(seconds: 40)) == MediaTime(seconds: 25), "joined at \(number)")
        }
    }

    @Test("a window that begins inside a break with no CUE-OUT-CONT takes the break's start from its SCTE-35 date range")
    func joinMidBreakWithDateRange() throws {
        let lines = [
            "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:5", "#EXT-X-MEDIA-SEQUENCE:105",
            "#EXT-X-DATERANGE:ID=\"splice-1\",START-DATE=\"\(Fixture.dateText("16"))\",DURATION=15,SCTE35-OUT=0xFC30",
            "#EXT-X-PROGRAM-DATE-TIME:\(Fixture.dateText("21"))", "#EXTINF:5,", "a1.ts", "#EXTINF:5,", "a2.ts",
            "#EXT-X-DISCONTINUITY", "#EXT-X-CUE-IN", "#EXT-X-PROGRAM-DATE-TIME:\(Fixture.dateText("31"))", "#EXTINF:4,", "c4.ts",
        ]
        let playlist = try MediaPlaylist(parsing: lines.joined(separator: "\n") + "\n")
        let timeline = PrimaryTimeline(playlist: playlist, firstSegmentStart: MediaTime(seconds: 21))
        #expect(StitchedAds(playlist: playlist, timeline: timeline).ranges == [Self.firstBreak])
    }
}
