import HLSInterstitials
import InterludeCommandLine
import MediaTime
import PlayerEngine
import PlayerInterface
import Testing

/// The keys of `interlude watch`, on ``WatchFixture``'s timeline.
@Suite("WatchControlStateMachine")
struct WatchControlStateMachineTests {
    typealias Fixture = WatchFixture

    @Test("space pauses a playing player and plays a paused one at the rate chosen with [ and ]")
    func playPause() throws {
        var controls = WatchControlStateMachine()
        let playing = try Fixture.state(at: .primary(Fixture.time("12")))
        #expect(controls.handle(.playPause, state: playing) == [.pause])
        let paused = try Fixture.state(at: .primary(Fixture.time("12")), rate: 0)
        #expect(controls.handle(.faster, state: paused) == [])
        #expect(controls.preferredRate == 1.25)
        #expect(controls.notice(at: paused.hostTime) == .rate(1.25))
        #expect(controls.handle(.playPause, state: paused) == [.play(rate: 1.25)])
        #expect(controls.handle(.slower, state: playing) == [.setRate(1)])
        #expect(controls.handle(.slower, state: playing) == [.setRate(0.75)])
    }

    @Test("the rate stops at the ends of its ladder")
    func rateLadder() throws {
        var controls = WatchControlStateMachine()
        let playing = try Fixture.state(at: .primary(Fixture.time("12")))
        for _ in 0..<10 { _ = controls.handle(.faster, state: playing) }
        #expect(controls.preferredRate == 4)
        for _ in 0..<10 { _ = controls.handle(.slower, state: playing) }
        #expect(controls.preferredRate == 0.25)
    }

    @Test("right and left seek 5 s along the integrated timeline: into a range break at its offset, back out to primary")
    func steps() throws {
        var controls = WatchControlStateMachine()
        let before = try Fixture.state(at: .primary(Fixture.time("17")))
        #expect(controls.handle(.seekForward, state: before) == [.seek(.interstitial(eventID: "mid", offset: Fixture.time("2")))])
        #expect(controls.notice(at: before.hostTime) == .seeking(to: Fixture.time("22")))
        #expect(controls.handle(.seekBackward, state: before) == [.seek(.primary(Fixture.time("12")))])
    }

    @Test("inside an X-RESTRICT=SKIP break, s, right, [ and ] are refused with a notice and nothing reaches the player")
    func restricted() throws {
        var controls = WatchControlStateMachine()
        let state = try Fixture.state(at: .interstitial(eventID: "pre", offset: Fixture.time("3")))
        for key in [WatchControlStateMachine.Key.skip, .seekForward, .faster, .slower] {
            #expect(controls.handle(key, state: state) == [], "\(key)")
            #expect(controls.notice(at: state.hostTime) == .refused(.restricted(eventID: "pre")), "\(key)")
        }
        #expect(controls.preferredRate == 1)
    }

    @Test("s skips a break whose skip control is open, says it cannot yet before, and that nothing plays outside a break")
    func skip() throws {
        var controls = WatchControlStateMachine()
        let early = try Fixture.state(at: .interstitial(eventID: "dot", offset: Fixture.time("1")))
        #expect(controls.handle(.skip, state: early) == [])
        #expect(controls.notice(at: early.hostTime) == .refused(.notSkippable(eventID: "dot")))
        let open = try Fixture.state(at: .interstitial(eventID: "dot", offset: Fixture.time("3")))
        #expect(controls.handle(.skip, state: open) == [.skipCurrentBreak])
        #expect(controls.notice(at: open.hostTime) == .skipped(eventID: "dot"))
        let primary = try Fixture.state(at: .primary(Fixture.time("12")))
        #expect(controls.handle(.skip, state: primary) == [])
        #expect(controls.notice(at: primary.hostTime) == .refused(.notInBreak))
    }

    @Test("a notice goes after four seconds of host time; i toggles the info panel; q quits")
    func noticeInfoQuit() throws {
        var controls = WatchControlStateMachine()
        let state = try Fixture.state(at: .primary(Fixture.time("12")))
        _ = controls.handle(.faster, state: state)
        #expect(controls.notice(at: state.hostTime + .milliseconds(3_999)) == .rate(1.25))
        #expect(controls.notice(at: state.hostTime + .seconds(4)) == nil)
        #expect(!controls.isInfoShown)
        #expect(controls.handle(.toggleInfo, state: state) == [])
        #expect(controls.isInfoShown)
        _ = controls.handle(.toggleInfo, state: state)
        #expect(!controls.isInfoShown)
        #expect(controls.handle(.quit, state: state) == [.quit])
    }
}
