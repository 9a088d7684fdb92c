import HLSInterstitials
import HLSPlaylist
import MediaTime
import Testing

/// The primary timeline: segment times summed from EXTINF, dates mapped through
/// EXT-X-PROGRAM-DATE-TIME (§4.4.4.6, D.2), X-SNAP boundaries, and live continuation.
@Suite("PrimaryTimeline")
struct PrimaryTimelineTests {
    @Test("segment starts are exact sums of EXTINF durations")
    func segmentStarts() throws {
        let timeline = PrimaryTimeline(playlist: try Fixture.playlist(segments: ["9.009", "9.009", "4.004", "6"]))
        #expect(timeline.segmentStarts == [time("0"), time("9.009"), time("18.018"), time("22.022")])
        #expect(timeline.start == .zero)
        #expect(timeline.end == time("28.022"))
        #expect(timeline.duration == time("28.022"))
        #expect(!timeline.isLive)
    }

    @Test("a START-DATE maps through the program date-time of the segment that covers it")
    func dateThroughPDT() throws {
        let timeline = PrimaryTimeline(playlist: try Fixture.playlist(firstDate: "100"))
        #expect(timeline.time(for: Fixture.date("100")) == .zero)
        #expect(timeline.time(for: Fixture.date("112.5")) == time("12.5"))
        #expect(timeline.time(for: Fixture.date("159.999")) == time("59.999"))
        #expect(timeline.date(at: time("12.5")) == Fixture.date("112.5"))
    }

    @Test("dates before the first written program date-time are derived backwards within a run")
    func derivedBackwards() throws {
        let timeline = PrimaryTimeline(playlist: try Fixture.playlist(firstDate: nil, segmentTags: [
            2: ["#EXT-X-PROGRAM-DATE-TIME:\(Fixture.dateText("12"))"],
        ]))
        #expect(timeline.time(for: Fixture.date("3")) == time("3"))
        #expect(timeline.time(for: Fixture.date("30")) == time("30"))
    }

    @Test("after a discontinuity with a program date-time jump, dates map through the new run")
    func discontinuityWithJump() throws {
        // Three 6 s segments dated 0–18, then a discontinuity to content dated 100–118.
        let timeline = PrimaryTimeline(playlist: try Fixture.playlist(segments: ["6", "6", "6", "6", "6", "6"], segmentTags: [
            3: ["#EXT-X-DISCONTINUITY", "#EXT-X-PROGRAM-DATE-TIME:\(Fixture.dateText("100"))"],
        ]))
        #expect(timeline.time(for: Fixture.date("10")) == time("10"))
        #expect(timeline.time(for: Fixture.date("100")) == time("18"))
        #expect(timeline.time(for: Fixture.date("103.5")) == time("21.5"))
        #expect(timeline.date(at: time("21.5")) == Fixture.date("103.5"))
    }

    @Test("a date in the hole of a program date-time jump maps to the start of the next run")
    func dateInHole() throws {
        // Spec-silent: no primary content carries that date; the first content dated after it is
        // the next run, which is where a player reaches the date (Apple triggers on currentDate).
        let timeline = PrimaryTimeline(playlist: try Fixture.playlist(segments: ["6", "6", "6", "6", "6", "6"], segmentTags: [
            3: ["#EXT-X-DISCONTINUITY", "#EXT-X-PROGRAM-DATE-TIME:\(Fixture.dateText("100"))"],
        ]))
        #expect(timeline.time(for: Fixture.date("18")) == time("18"))
        #expect(timeline.time(for: Fixture.date("50")) == time("18"))
        #expect(timeline.time(for: Fixture.date("99.9")) == time("18"))
    }

    @Test("a discontinuity whose dates go backwards still maps each date through its own run")
    func dateGoingBackwards() throws {
        let timeline = PrimaryTimeline(playlist: try Fixture.playlist(segments: ["6", "6", "6", "6"], firstDate: "100", segmentTags: [
            2: ["#EXT-X-DISCONTINUITY", "#EXT-X-PROGRAM-DATE-TIME:\(Fixture.dateText("0"))"],
        ]))
        #expect(timeline.time(for: Fixture.date("103")) == time("3"))
        #expect(timeline.time(for: Fixture.date("3")) == time("15"))
    }

    @Test("EXT-X-GAP segments keep their place and duration on the timeline")
    func gaps() throws {
        let timeline = PrimaryTimeline(playlist: try Fixture.playlist(segments: ["6", "6", "6", "6"], segmentTags: [1: ["#EXT-X-GAP"]]))
        #expect(timeline.segmentStarts == [time("0"), time("6"), time("12"), time("18")])
        #expect(timeline.time(for: Fixture.date("8")) == time("8"))
        #expect(timeline.time(for: Fixture.date("13")) == time("13"))
    }

    @Test("dates before or after the playlist are extrapolated from the nearest dated segment")
    func outsideTheWindow() throws {
        let timeline = PrimaryTimeline(playlist: try Fixture.playlist(firstDate: "100"))
        #expect(timeline.time(for: Fixture.date("90")) == time("-10"))
        #expect(timeline.time(for: Fixture.date("175")) == time("75"))
        #expect(timeline.date(at: time("75")) == nil, "no segment covers a time after the end")
    }

    @Test("without any program date-time no date can be mapped")
    func noPDT() throws {
        let timeline = PrimaryTimeline(playlist: try Fixture.playlist(firstDate: nil))
        #expect(timeline.time(for: Fixture.date("10")) == nil)
        #expect(timeline.date(at: time("10")) == nil)
    }

    @Test("X-SNAP moves a time to the nearest boundary of the segment containing it")
    func nearestBoundary() throws {
        let timeline = PrimaryTimeline(playlist: try Fixture.playlist(segments: ["6", "4", "10"]))
        #expect(timeline.nearestSegmentBoundary(to: time("2.999")) == .zero)
        #expect(timeline.nearestSegmentBoundary(to: time("3")) == time("6"), "the midpoint goes to the end, as hls.js does")
        #expect(timeline.nearestSegmentBoundary(to: time("5.5")) == time("6"))
        #expect(timeline.nearestSegmentBoundary(to: time("6")) == time("6"))
        #expect(timeline.nearestSegmentBoundary(to: time("7.9")) == time("6"))
        #expect(timeline.nearestSegmentBoundary(to: time("8")) == time("10"))
        #expect(timeline.nearestSegmentBoundary(to: time("14")) == time("10"))
        #expect(timeline.nearestSegmentBoundary(to: time("15.5")) == time("20"))
    }

    @Test("X-SNAP leaves a time alone when no segment covers it")
    func noSnapOutside() throws {
        let timeline = PrimaryTimeline(playlist: try Fixture.playlist(segments: ["6", "6"]))
        #expect(timeline.nearestSegmentBoundary(to: time("13")) == time("13"))
        #expect(timeline.nearestSegmentBoundary(to: time("-1")) == time("-1"))
    }

    @Test("the segment containing a time is found by its half-open span")
    func segmentIndex() throws {
        let timeline = PrimaryTimeline(playlist: try Fixture.playlist(segments: ["6", "4", "10"]))
        #expect(timeline.segmentIndex(containing: .zero) == 0)
        #expect(timeline.segmentIndex(containing: time("5.999")) == 0)
        #expect(timeline.segmentIndex(containing: time("6")) == 1)
        #expect(timeline.segmentIndex(containing: time("19.999")) == 2)
        #expect(timeline.segmentIndex(containing: time("20")) == nil)
        #expect(timeline.segmentIndex(containing: time("-0.001")) == nil)
    }

    @Test("a playlist without EXT-X-ENDLIST is live")
    func live() throws {
        let timeline = PrimaryTimeline(playlist: try Fixture.playlist(segments: ["6", "6"], mediaSequence: 40, live: true))
        #expect(timeline.isLive)
        #expect(timeline.mediaSequence == 40)
    }

    @Test("a live reload keeps every segment at the time it had, by media sequence number")
    func liveContinuation() throws {
        let first = PrimaryTimeline(playlist: try Fixture.playlist(
            segments: ["6", "6", "6", "6", "6"], firstDate: "0", mediaSequence: 100, live: true
        ))
        #expect(first.start == .zero)
        #expect(first.end == time("30"))
        let reload = try Fixture.playlist(segments: ["6", "6", "6", "6", "6"], firstDate: "12", mediaSequence: 102, live: true)
        let second = PrimaryTimeline(playlist: reload, continuing: first)
        #expect(second.start == time("12"))
        #expect(second.segmentStarts == [time("12"), time("18"), time("24"), time("30"), time("36")])
        #expect(second.end == time("42"))
        #expect(second.time(for: Fixture.date("37.5")) == time("37.5"), "dates and times stay aligned across reloads")
        let third = PrimaryTimeline(
            playlist: try Fixture.playlist(segments: ["6", "6", "6", "6", "6"], firstDate: "42", mediaSequence: 107, live: true),
            continuing: second
        )
        #expect(third.start == time("42"), "a window starting right after the previous one continues at its end")
    }

    @Test("a live reload that slid past everything the client held is placed by its program date-time")
    func liveContinuationByDate() throws {
        let first = PrimaryTimeline(playlist: try Fixture.playlist(
            segments: ["6", "6", "6"], firstDate: "0", mediaSequence: 10, live: true
        ))
        let far = PrimaryTimeline(
            playlist: try Fixture.playlist(segments: ["6", "6", "6"], firstDate: "60", mediaSequence: 20, live: true),
            continuing: first
        )
        #expect(far.start == time("60"))
        #expect(far.time(for: Fixture.date("61")) == time("61"))
        let undated = PrimaryTimeline(
            playlist: try Fixture.playlist(segments: ["6", "6", "6"], firstDate: nil, mediaSequence: 20, live: true),
            continuing: first
        )
        #expect(undated.start == time("18"), "without dates the best guess is right after what the client held")
    }
}
