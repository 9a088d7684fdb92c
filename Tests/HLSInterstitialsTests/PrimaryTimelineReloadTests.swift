import HLSInterstitials
import HLSPlaylist
import MediaTime
import Testing

@Suite("Primary timeline across live reloads")
struct PrimaryTimelineReloadTests {
    /// A live window of `count` segments from `sequence`, each `duration` long, dated from a fixed
    /// origin, optionally with a discontinuity and a gap in the dates.
    static func window(sequence: Int, count: Int, duration: String = "2.002", jumpAt: Int? = nil) -> MediaPlaylist {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:3\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n"
        let step = MediaTime(decimal: duration)!
        for number in sequence..<(sequence + count) {
            var date = PlaylistDate(iso8601: "2026-11-30T10:00:00Z")!.adding(step * Int64(number))
            if let jumpAt, number >= jumpAt {
                date = date.adding(MediaTime(seconds: 60))
                if number == jumpAt { text += "#EXT-X-DISCONTINUITY\n" }
            }
            text += "#EXT-X-PROGRAM-DATE-TIME:\(date.iso8601String)\n#EXTINF:\(duration),\ns\(number).ts\n"
        }
        return try! MediaPlaylist(parsing: text)
    }

    @Test("a reload that slides the window keeps every kept segment's time and equals a full rebuild",
          arguments: [(1, 1), (3, 2), (1, 0), (5, 7)])
    func slidingMatchesRebuild(slide: Int, added: Int) throws {
        let first = PrimaryTimeline(playlist: Self.window(sequence: 100, count: 30))
        let reloaded = Self.window(sequence: 100 + slide, count: 30 - slide + added)
        let continued = PrimaryTimeline(playlist: reloaded, continuing: first)
        let rebuilt = PrimaryTimeline(playlist: reloaded, firstSegmentStart: first.segmentStarts[slide])
        #expect(continued == rebuilt)
        #expect(continued.start == first.segmentStarts[slide])
        #expect(continued.end == first.start + MediaTime(decimal: "2.002")! * Int64(30 + added))
        for offset in stride(from: 0, to: 30 - slide + added, by: 3) {
            let date = rebuilt.segmentDates[offset]!.adding(MediaTime(decimal: "0.5")!)
            #expect(continued.time(for: date) == rebuilt.time(for: date))
            #expect(continued.segmentIndex(containing: rebuilt.segmentStarts[offset]) == offset)
        }
    }

    @Test("a reload whose new segments carry a discontinuity and a date jump maps dates like a rebuild")
    func discontinuityAfterSlide() throws {
        let first = PrimaryTimeline(playlist: Self.window(sequence: 0, count: 10))
        let reloaded = Self.window(sequence: 2, count: 12, jumpAt: 10)
        let continued = PrimaryTimeline(playlist: reloaded, continuing: first)
        let rebuilt = PrimaryTimeline(playlist: reloaded, firstSegmentStart: first.segmentStarts[2])
        #expect(continued == rebuilt)
        let afterJump = PlaylistDate(iso8601: "2026-11-30T10:01:21Z")!
        #expect(continued.time(for: afterJump) == rebuilt.time(for: afterJump))
        #expect(continued.time(for: afterJump) != nil)
    }

    @Test("a reload that reuses media sequence numbers with another PROGRAM-DATE-TIME takes the newer playlist's dates")
    func newerDatesWin() throws {
        let first = PrimaryTimeline(playlist: Self.window(sequence: 100, count: 10))
        // The same segments, dated once on the first one, 30 s later than before.
        let newDate = first.segmentDates[2]!.adding(MediaTime(seconds: 30))
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:3\n#EXT-X-MEDIA-SEQUENCE:102\n"
        text += "#EXT-X-PROGRAM-DATE-TIME:\(newDate.iso8601String)\n"
        for number in 102..<112 { text += "#EXTINF:2.002,\ns\(number).ts\n" }
        let continued = PrimaryTimeline(playlist: try MediaPlaylist(parsing: text), continuing: first)
        #expect(continued.start == first.segmentStarts[2], "the segments keep their times")
        #expect(continued.segmentDates[0] == newDate)
        #expect(continued.segmentDates[5] == newDate.adding(MediaTime(decimal: "2.002")! * 5), "dates follow from the new one")
        #expect(continued.time(for: newDate) == continued.start)
        #expect(continued.time(for: first.segmentDates[3]!) != first.segmentStarts[3], "the old dates no longer map")
    }

    @Test("a reload that disagrees with the previous window about a kept segment is rebuilt from scratch")
    func disagreementRebuilds() throws {
        let first = PrimaryTimeline(playlist: Self.window(sequence: 0, count: 10))
        let reloaded = Self.window(sequence: 2, count: 10, duration: "4.004")
        let continued = PrimaryTimeline(playlist: reloaded, continuing: first)
        #expect(continued.segmentDurations.allSatisfy { $0 == MediaTime(decimal: "4.004")! })
        #expect(continued.start == first.segmentStarts[2])
    }
}

@Suite("Interstitial events across live reloads")
struct EventReuseTests {
    static func playlist(_ breaks: [(id: String, offset: Int, duration: String)], sequence: Int = 0) -> MediaPlaylist {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n"
        let origin = PlaylistDate(iso8601: "2026-11-30T10:00:00Z")!
        for item in breaks {
            let start = origin.adding(MediaTime(seconds: Int64(item.offset)))
            text += "#EXT-X-DATERANGE:ID=\"\(item.id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(start.iso8601String)\","
                + "DURATION=\(item.duration),X-ASSET-LIST=\"/ads/\(item.id).json\"\n"
        }
        for number in sequence..<(sequence + 20) {
            text += "#EXT-X-PROGRAM-DATE-TIME:\(origin.adding(MediaTime(seconds: Int64(2 * number))).iso8601String)\n#EXTINF:2,\ns\(number).ts\n"
        }
        return try! MediaPlaylist(parsing: text)
    }

    @Test("a reload keeps unchanged events, makes new ones and remakes changed ones")
    func reuse() {
        let first = InterstitialEvent.events(in: Self.playlist([("a", 4, "10"), ("b", 20, "10")])).events
        let reload = Self.playlist([("a", 4, "10"), ("b", 20, "15"), ("c", 30, "5")], sequence: 1)
        let reused = InterstitialEvent.events(in: reload, reusing: first).events
        let fresh = InterstitialEvent.events(in: reload).events
        #expect(reused == fresh)
        #expect(reused.map(\.identifier) == ["a", "b", "c"])
        #expect(reused[0].isStored(like: first[0]))
        #expect(!reused[1].isStored(like: first[1]))
        #expect(reused[1].duration == MediaTime(seconds: 15))
    }
}
