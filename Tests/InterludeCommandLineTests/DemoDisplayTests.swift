import InterludeCommandLine
import Testing

/// What `interlude demo` shows while a story runs.
@Suite("DemoDisplay")
struct DemoDisplayTests {
    typealias Fixture = DemoTraceFixture

    /// The waiting story's participants as far as their traces go at `seconds`.
    static func participants(at seconds: Double) -> [DemoDisplay.Participant] {
        let cutoff = Fixture.time(seconds)
        return Fixture.waitingStory().enumerated().map { index, participant in
            let text = Fixture.text(id: "p\(index + 1)", until: seconds) { t in
                index == 0
                    ? (t < 10 ? .playing(t) : t < 25.3 ? .waiting(at: 10, for: ["p2"]) : .playing(t - 15.3))
                    : (t < 10 ? .playing(t) : t < 25 ? .inBreak("mid-1", offset: t - 10) : t < 25.3 ? .waiting(at: 10, for: []) : .playing(t - 15.3))
            }
            let lines = text.split(separator: "\n").filter { line in
                Int64(line.dropFirst(5).prefix { $0.isNumber }).map { $0 <= cutoff } ?? false
            }
            return DemoDisplay.Participant(name: participant.name, role: index == 0 ? "owner" : "controller", trace: DemoTrace(text: lines.joined(separator: "\n") + "\n"))
        }
    }

    @Test("a line per participant says where it is, its break, whom it waits for by name, under the story's time and the group's skew")
    func lines() {
        let display = DemoDisplay(story: "demo-vod", policy: "waiting policy", start: Fixture.start, duration: .seconds(85))
        let during = display.lines(at: Fixture.time(13.05), participants: Self.participants(at: 13.05))
        #expect(during == [
            "demo-vod · waiting policy · 0:13.0 of 1:25 · skew -",
            "  alice    owner       at 0:10.0 waiting for bob",
            "  bob      controller  in break mid-1 +3.0 s",
        ])
        let after = display.lines(at: Fixture.time(30.05), participants: Self.participants(at: 30.05))
        #expect(after[0] == "demo-vod · waiting policy · 0:30.0 of 1:25 · skew 0.0 ms")
        #expect(after[1] == "  alice    owner       at 0:14.7 playing")
    }

    @Test("each moment is told once, when it comes: a start, a break and the return from it, a wait and its end")
    func moments() {
        var display = DemoDisplay(story: "demo-vod", policy: "waiting policy", start: Fixture.start, duration: .seconds(85))
        #expect(display.moments(at: Fixture.time(5), participants: Self.participants(at: 5)) == [
            "0:00.5    alice    plays from 0:00.5",
            "0:00.5    bob      plays from 0:00.5",
        ])
        #expect(display.moments(at: Fixture.time(5.2), participants: Self.participants(at: 5.2)).isEmpty)
        #expect(display.moments(at: Fixture.time(12), participants: Self.participants(at: 12)) == [
            "0:10.0    alice    waits for bob",
            "0:10.0    bob      into break mid-1 at 0:09.9",
        ])
        #expect(display.moments(at: Fixture.time(30), participants: Self.participants(at: 30)) == [
            "0:25.3    alice    goes on after waiting 15.3 s",
            "0:25.0    bob      back from mid-1 after 15.0 s, at 0:10.0",
        ])
    }
}
