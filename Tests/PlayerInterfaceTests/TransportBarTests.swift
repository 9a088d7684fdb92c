import HLSInterstitials
import MediaTime
import PlayerInterface
import Testing

/// The transport bar drawn from a snapshot (S2.3, S2.11). The timeline: a 5 s point break "dot" at
/// 12 s resuming where it left (integrated 12 s, no length), a 10 s range break "ad" at 30 s
/// (integrated 30–40 s), and a 5 s range break "promo" at 50 s that supplements primary content.
@Suite("TransportBar")
struct TransportBarTests {
    static let tags = [
        Timeline.interstitial("dot", at: "12", "DURATION=5,X-RESUME-OFFSET=0"),
        Timeline.interstitial("ad", at: "30", "DURATION=10,X-TIMELINE-OCCUPIES=\"RANGE\",X-SKIP-CONTROL-OFFSET=5"),
        Timeline.interstitial("promo", at: "50", "DURATION=5,X-TIMELINE-OCCUPIES=\"RANGE\",X-TIMELINE-STYLE=\"PRIMARY\""),
    ]

    @Test("a point break is a dot at its mapped start, a range break a span, a break that supplements primary is not drawn")
    func marks() throws {
        let bar = TransportBar(snapshot: try Timeline.snapshot(Self.tags))
        #expect(bar.start == .zero)
        #expect(bar.knownDuration == time("60"))
        #expect(!bar.isLive)
        #expect(bar.marks.map(\.eventID) == ["dot", "ad"])
        #expect(bar.marks[0].kind == .point)
        #expect(bar.marks[0].timelineRange == MediaTimeRange(start: time("12"), duration: .zero))
        #expect(bar.marks[1].kind == .range)
        #expect(bar.marks[1].timelineRange == MediaTimeRange(start: time("30"), end: time("40")))
    }

    @Test("laid out in 60 columns: one second a column, the playhead over what it covers, played primary left of it")
    func layout() throws {
        let start = TransportBar(snapshot: try Timeline.snapshot(Self.tags))
        #expect(start.text(columns: 60) == "|" + String(repeating: "-", count: 11) + "o" + String(repeating: "-", count: 17)
            + String(repeating: "#", count: 10) + String(repeating: "-", count: 20))
        let later = TransportBar(snapshot: try Timeline.snapshot(Self.tags, at: .primary(time("45.5"))))
        #expect(later.playhead == time("45.5"))
        #expect(later.text(columns: 60) == String(repeating: "=", count: 12) + "o" + String(repeating: "=", count: 17)
            + String(repeating: "#", count: 10) + String(repeating: "=", count: 5) + "|" + String(repeating: "-", count: 14))
    }

    @Test("laid out narrower, marks keep their place in proportion; without progress the bar is an overview with no playhead")
    func narrowAndOverview() throws {
        let bar = TransportBar(snapshot: try Timeline.snapshot(Self.tags, at: .primary(time("45"))))
        #expect(bar.text(columns: 20) == "====o=====###==|----")
        #expect(bar.text(columns: 20, showsProgress: false) == "----o-----###-------")
        #expect(bar.cells(columns: 20, showsProgress: false).filter { $0 == .playhead }.isEmpty)
        #expect(bar.text(columns: 20, showsProgress: false, glyph: { $0 == .primary ? "=" : $0.glyph }) == "====o=====###=======")
        #expect(bar.column(for: bar.playhead, columns: 20) == 15)
    }

    @Test("inside a range break: its countdown, and a skip button only once the skip control's offset has passed")
    func currentBreak() throws {
        let early = try #require(TransportBar(snapshot: try Timeline.snapshot(Self.tags, at: .interstitial(eventID: "ad", offset: time("2")))).currentBreak)
        #expect(early.eventID == "ad")
        #expect(early.duration == time("10"))
        #expect(early.remaining == time("8"))
        #expect(!early.isSkippable)
        let late = try #require(TransportBar(snapshot: try Timeline.snapshot(Self.tags, at: .interstitial(eventID: "ad", offset: time("5")))).currentBreak)
        #expect(late.isSkippable)
        #expect(TransportBar(snapshot: try Timeline.snapshot(Self.tags, at: .primary(time("20")))).currentBreak == nil)
    }

    @Test("a break with X-RESTRICT=SKIP offers no skip button even when its skip control is open")
    func restrictedBreak() throws {
        let tags = [Timeline.interstitial("locked", at: "30", "DURATION=10,X-TIMELINE-OCCUPIES=\"RANGE\",X-SKIP-CONTROL-OFFSET=0,X-RESTRICT=\"SKIP\"")]
        let current = try #require(TransportBar(snapshot: try Timeline.snapshot(tags, at: .interstitial(eventID: "locked", offset: time("3")))).currentBreak)
        #expect(current.skipControl != nil)
        #expect(!current.allowsSeekingForward)
        #expect(!current.isSkippable)
    }

    @Test("a live window: the bar spans the known window from where it starts, with no end, and the marks in it")
    func live() throws {
        let schedule = try Timeline.schedule([Timeline.interstitial("dot", at: "12", "DURATION=5,X-RESUME-OFFSET=0")], liveFrom: time("600"))
        let bar = TransportBar(snapshot: IntegratedTimeline.Snapshot(schedule: schedule, position: .primary(time("630"))))
        #expect(bar.isLive)
        #expect(bar.start == time("600"))
        #expect(bar.knownDuration == time("60"))
        #expect(bar.marks.map(\.timelineRange.start) == [time("612")])
        #expect(bar.text(columns: 20) == "====o=====|---------")
        #expect(InfoPanel(info: NowPlayingInfo(title: "News", isLiveStream: true), bar: bar).lines == ["News", "live  0:30 into the window"])
    }
}
