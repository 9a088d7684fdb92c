import BrowserParticipant
import GroupWire
import MediaTime
import Testing

/// charlie's schedule on the origin's VOD: a pod of a 10 s and a 20 s ad at 40 s, primary
/// resuming where it left; a 5 s ad at 80 s resuming at 85 s.
private let schedule = BrowserSchedule(breaks: [
    .init(id: "mid-1", start: MediaTime(seconds: 40), duration: MediaTime(seconds: 30), resumeTime: MediaTime(seconds: 40), assets: [
        .init(url: "http://127.0.0.1/ads/spot-10s/index.m3u8", duration: MediaTime(seconds: 10)),
        .init(url: "http://127.0.0.1/ads/spot-20s/index.m3u8", duration: MediaTime(seconds: 20)),
    ]),
    .init(id: "mid-2", start: MediaTime(seconds: 80), duration: MediaTime(seconds: 5), resumeTime: MediaTime(seconds: 85), assets: [
        .init(url: "http://127.0.0.1/ads/legal/index.m3u8", duration: MediaTime(seconds: 5)),
    ]),
    .init(id: "late", start: MediaTime(seconds: 100), duration: nil, resumeTime: MediaTime(seconds: 100), assets: nil),
])

private let t0: Duration = .seconds(1_796_000_000)

private func seconds(_ value: Double) -> MediaTime { MediaTime(seconds: value)! }

@Suite("Where the page's video should be, from an anchor and the schedule")
struct BrowserAnchorTests {
    @Test("a primary anchor moves on at its rate, and stands still at rate 0")
    func primaryMovesAtRate() {
        let playing = BrowserAnchor(at: t0, rate: 1, position: .primary(seconds(12)), nextBreak: "mid-1")
        #expect(playing.expectedPosition(at: t0 + .milliseconds(2_500), in: schedule) == .primary(seconds(14.5)))
        let fast = BrowserAnchor(at: t0, rate: 2, position: .primary(seconds(12)), nextBreak: "mid-1")
        #expect(fast.expectedPosition(at: t0 + .seconds(3), in: schedule) == .primary(seconds(18)))
        let paused = BrowserAnchor(at: t0, rate: 0, position: .primary(seconds(39.9)), nextBreak: "mid-1")
        #expect(paused.expectedPosition(at: t0 + .seconds(60), in: schedule) == .primary(seconds(39.9)))
    }

    @Test("primary enters the next break at its start and plays its assets one after the other")
    func entersBreakOnTime() {
        let anchor = BrowserAnchor(at: t0, rate: 1, position: .primary(seconds(38)), nextBreak: "mid-1")
        #expect(anchor.expectedPosition(at: t0 + .milliseconds(1_999), in: schedule) == .primary(seconds(39.999)))
        #expect(anchor.expectedPosition(at: t0 + .seconds(2), in: schedule) == .asset(breakID: "mid-1", index: 0, offset: .zero))
        #expect(anchor.expectedPosition(at: t0 + .milliseconds(11_500), in: schedule) == .asset(breakID: "mid-1", index: 0, offset: seconds(9.5)))
        #expect(anchor.expectedPosition(at: t0 + .seconds(12), in: schedule) == .asset(breakID: "mid-1", index: 1, offset: .zero))
    }

    @Test("a break ends on time and primary resumes at its resumption point")
    func leavesBreakOnTime() {
        let inPod = BrowserAnchor(at: t0, rate: 1, position: .asset(breakID: "mid-1", index: 1, offset: seconds(19)), resumeTime: seconds(40))
        #expect(inPod.expectedPosition(at: t0 + .milliseconds(999), in: schedule) == .asset(breakID: "mid-1", index: 1, offset: seconds(19.999)))
        #expect(inPod.expectedPosition(at: t0 + .milliseconds(1_250), in: schedule) == .primary(seconds(40.25)))
        // Resuming later than the break's start (a resumption offset): primary picks up there.
        let short = BrowserAnchor(at: t0, rate: 1, position: .asset(breakID: "mid-2", index: 0, offset: seconds(4.5)), resumeTime: seconds(85))
        #expect(short.expectedPosition(at: t0 + .seconds(1), in: schedule) == .primary(seconds(85.5)))
        // The player says where primary goes on to (a seek across the break): that wins.
        let seekAcross = BrowserAnchor(at: t0, rate: 1, position: .asset(breakID: "mid-2", index: 0, offset: seconds(4.5)), resumeTime: seconds(95))
        #expect(seekAcross.expectedPosition(at: t0 + .seconds(1), in: schedule) == .primary(seconds(95.5)))
    }

    @Test("a break already played, one whose assets are unknown, or none ahead is not entered")
    func breaksNotEntered() {
        let pastMid1 = BrowserAnchor(at: t0, rate: 1, position: .primary(seconds(41)), nextBreak: "mid-1")
        #expect(pastMid1.expectedPosition(at: t0 + .seconds(1), in: schedule) == .primary(seconds(42)))
        let unknown = BrowserAnchor(at: t0, rate: 1, position: .primary(seconds(99)), nextBreak: "late")
        #expect(unknown.expectedPosition(at: t0 + .seconds(2), in: schedule) == .primary(seconds(101)))
        let none = BrowserAnchor(at: t0, rate: 1, position: .primary(seconds(39)), nextBreak: nil)
        #expect(none.expectedPosition(at: t0 + .seconds(2), in: schedule) == .primary(seconds(41)))
    }

    @Test("a fresh anchor supersedes the last when the page could not work it out")
    func superseding() {
        let tolerance = MediaTime(value: 20, timescale: 1000)
        let last = BrowserAnchor(at: t0, rate: 1, position: .primary(seconds(38)), nextBreak: "mid-1")
        let onTrack = BrowserAnchor(at: t0 + .milliseconds(500), rate: 1, position: .primary(seconds(38.51)), nextBreak: "mid-1")
        #expect(!last.isSuperseded(by: onTrack, in: schedule, tolerance: tolerance))
        let drifted = BrowserAnchor(at: t0 + .milliseconds(500), rate: 1, position: .primary(seconds(38.53)), nextBreak: "mid-1")
        #expect(last.isSuperseded(by: drifted, in: schedule, tolerance: tolerance))
        let paused = BrowserAnchor(at: t0 + .milliseconds(500), rate: 0, position: .primary(seconds(38.5)), nextBreak: "mid-1")
        #expect(last.isSuperseded(by: paused, in: schedule, tolerance: tolerance))
        // Into the break on time, as the page switched by itself: nothing new.
        let inBreak = BrowserAnchor(at: t0 + .seconds(3), rate: 1, position: .asset(breakID: "mid-1", index: 0, offset: seconds(1)), resumeTime: seconds(40))
        #expect(last.isSuperseded(by: inBreak, in: schedule, tolerance: tolerance))
        let inBreakLater = BrowserAnchor(at: t0 + .seconds(4), rate: 1, position: .asset(breakID: "mid-1", index: 0, offset: seconds(2)), resumeTime: seconds(40))
        #expect(!inBreak.isSuperseded(by: inBreakLater, in: schedule, tolerance: tolerance))
        // Back in primary with the next break ahead: the page learns which.
        let back = BrowserAnchor(at: t0 + .seconds(33), rate: 1, position: .primary(seconds(41)), nextBreak: "mid-2")
        #expect(inBreak.isSuperseded(by: back, in: schedule, tolerance: tolerance))
    }

    @Test("the anchor message carries the server time, rate and position in seconds")
    func anchorMessage() {
        let anchor = BrowserAnchor(at: t0 + .milliseconds(250), rate: 1, position: .asset(breakID: "mid-1", index: 1, offset: seconds(2.5)), resumeTime: seconds(40))
        #expect(anchor.wire.jsonText == #"{"type":"anchor","at":1796000000.25,"rate":1.0,"break":"mid-1","asset":1,"offset":2.5,"resume":40.0}"#)
        let primary = BrowserAnchor(at: t0, rate: 0, position: .primary(seconds(12.125)), nextBreak: "mid-1")
        #expect(primary.wire.jsonText == #"{"type":"anchor","at":1796000000.0,"rate":0.0,"primary":12.125,"next":"mid-1"}"#)
    }

    @Test("the schedule message lists each break's start, duration, resumption point and assets")
    func scheduleMessage() {
        let one = BrowserSchedule(breaks: [schedule.breaks[1], schedule.breaks[2]])
        #expect(one.wire.jsonText == #"{"type":"schedule","breaks":[{"id":"mid-2","start":80.0,"duration":5.0,"resume":85.0,"assets":[{"url":"http://127.0.0.1/ads/legal/index.m3u8","duration":5.0}]},{"id":"late","start":100.0,"duration":null,"resume":100.0,"assets":null}]}"#)
    }
}
