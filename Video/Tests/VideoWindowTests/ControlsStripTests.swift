import HLSInterstitials
import MediaTime
import PlayerInterface
import Testing
import VideoWindow

/// The strip folded from a TransportBarStateMachine fed the content's snapshots (a 2.5 s point
/// break "ad" at 21.3 s).
@Suite("ControlsStrip")
struct ControlsStripTests {
    static func feed(_ positions: [IntegratedTimeline.Position]) throws -> [ControlsStrip] {
        let schedule = try ContentSchedule.make()
        var machine = TransportBarStateMachine()
        var strip = ControlsStrip()
        return positions.map { position in
            for action in machine.handle(.snapshot(IntegratedTimeline.Snapshot(schedule: schedule, position: position))) {
                _ = strip.apply(action)
            }
            return strip
        }
    }

    @Test("entering a break shows its countdown, which each move of the playhead brings down; leaving it shows the position again")
    func countdown() throws {
        let strips = try Self.feed([
            .primary(MediaTime(seconds: 20)),
            .interstitial(eventID: "ad", offset: try #require(MediaTime(decimal: "0.4"))),
            .interstitial(eventID: "ad", offset: try #require(MediaTime(decimal: "1.6"))),
            .primary(try #require(MediaTime(decimal: "22.3"))),
        ])
        #expect(strips.map(\.label) == ["0:20 / 1:00", "Ad -0:03", "Ad -0:01", "0:22 / 1:00"])
        #expect(strips[1].currentBreak?.eventID == "ad")
        #expect(strips[3].currentBreak == nil)
    }

    @Test("a scrub moves the drawn playhead to its target; actions for the player change nothing")
    func scrub() throws {
        var strip = try #require(Self.feed([.primary(MediaTime(seconds: 20))]).last)
        let moved = strip.apply(.showScrubPreview(.init(target: MediaTime(seconds: 45), refinement: .highSpeed)))
        #expect(moved)
        #expect(strip.bar?.playhead == MediaTime(seconds: 45))
        let changed = [strip.apply(.seek(.primary(MediaTime(seconds: 45)))), strip.apply(.refused(.notInBreak))]
        #expect(changed == [false, false])
    }

    @Test("before the first bar there is nothing to label")
    func empty() {
        #expect(ControlsStrip().label == nil)
    }

    @Test("following a group, the label says the group's state after the time or the countdown; it changes only when the state does")
    func groupState() throws {
        let strips = try Self.feed([.primary(MediaTime(seconds: 20)), .interstitial(eventID: "ad", offset: try #require(MediaTime(decimal: "0.4")))])
        var playing = strips[0], waiting = strips[1]
        let changes = [playing.setGroupState("group playing"), playing.setGroupState("group playing"), waiting.setGroupState("group waits for p2")]
        #expect(changes == [true, false, true])
        #expect(playing.label == "0:20 / 1:00   group playing")
        #expect(waiting.label == "Ad -0:03   group waits for p2")
        let cleared = waiting.setGroupState(nil)
        #expect(cleared)
        #expect(waiting.label == "Ad -0:03")
    }
}
