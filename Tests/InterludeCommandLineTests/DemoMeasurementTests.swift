import GroupSimulation
import InterludeCommandLine
import Testing

/// What `interlude demo` reads from its participants' traces, and the figures it makes of them.
@Suite("DemoMeasurement")
struct DemoMeasurementTests {
    typealias Fixture = DemoTraceFixture

    @Test("a trace read in pieces holds each line once its newline has come, and skips what is not a trace line")
    func readsTracesInPieces() {
        let text = Fixture.text(id: "p2", role: "controller", until: 1) { .playing(5 + $0) }
        var trace = DemoTrace()
        let bytes = Array(text.utf8)
        // Cut in the middle of a line: the half line waits for the rest.
        let cut = bytes.firstIndex(of: UInt8(ascii: "\n"))! + 20
        trace.append(Array(bytes[..<cut]))
        #expect(trace.events.count == 1)
        trace.append(Array(bytes[cut...]))
        trace.append(Array("{\"t\":1,\"sample\":{\"primary\":".utf8) + [10] + Array("not json\n\n".utf8))
        #expect(trace.participantID == "p2")
        #expect(trace.role == "controller")
        #expect(trace.coordinatedAt == Fixture.time(0.5))
        #expect(trace.samples.count == 10)
        #expect(trace.samples.first?.primary == 5.03)
        #expect(trace.samples.first?.status == "playing")
        #expect(trace.unreadableLines == 2)
    }

    @Test("default policy: the ad watcher's time in its break and the content it skipped to rejoin, the group's skew while all play")
    func defaultPolicyStory() throws {
        let report = DemoMeasurement.report(scenario: "live", description: nil, start: Fixture.start, duration: .seconds(40), participants: Fixture.liveStory())
        let alice = try #require(report.participants.first)
        let bob = try #require(report.participants.last)
        #expect(alice.inBreaks == .zero)
        #expect(alice.skipped == 0)
        #expect(abs(DemoSummary.seconds(bob.inBreaks) - 15) <= 0.2)
        #expect(abs(bob.skipped - 15) <= 0.2)
        #expect(bob.waited == .zero && alice.waited == .zero)
        #expect(abs((alice.finalPosition ?? 0) - 89.93) < 0.01)
        // Bob plays 4 ms ahead of alice whenever both play.
        let steady = report.skew.steadyPercentiles
        #expect(abs(steady.p50 - 4) < 0.01 && abs(steady.max - 4) < 0.01)
        #expect(steady.count > 200)
        #expect(report.skew.transitions.count == 1)
        #expect(bob.series.contains { $0.state == "inBreak" } && bob.series.contains { $0.state == "playing" })
    }

    @Test("waiting policy: who waited how long and when, the group's wait named for whom it waited, nobody skipping")
    func waitingPolicyStory() throws {
        let report = DemoMeasurement.report(scenario: "vod", description: nil, start: Fixture.start, duration: .seconds(40), participants: Fixture.waitingStory())
        let alice = try #require(report.participants.first)
        let bob = try #require(report.participants.last)
        #expect(abs(DemoSummary.seconds(alice.waited) - 15.3) <= 0.2)
        let wait = try #require(alice.waits.first)
        #expect(alice.waits.count == 1)
        #expect(abs(DemoSummary.seconds(wait.start) - 10) <= 0.2 && abs(DemoSummary.seconds(wait.length) - 15.3) <= 0.2)
        #expect(abs(DemoSummary.seconds(bob.inBreaks) - 15) <= 0.2)
        #expect(abs(DemoSummary.seconds(bob.waited) - 0.3) <= 0.15)
        #expect(alice.skipped == 0 && bob.skipped == 0 && bob.rewound == 0)
        #expect(report.notes.map(\.text) == ["group waiting, waiting for bob", "group playing"])
        // A start and the resume after the wait.
        #expect(report.skew.transitions.count == 2)
        #expect(abs(DemoSummary.seconds(report.skew.transitions[1].anchor) - 25.3) <= 0.15)
    }

    @Test("coming back past the group and going back to it is not counted as skipped, as the simulator counts it")
    func returnPastTheGroup() throws {
        let bob = Fixture.trace(id: "p2", until: 30) { t in
            t < 10 ? .playing(t) : t < 25 ? .inBreak("ad", offset: t - 10) : t < 25.5 ? .playing(t + 15.6 - 15) : .playing(t)
        }
        let report = DemoMeasurement.report(
            scenario: "live", description: nil, start: Fixture.start, duration: .seconds(30), participants: [.init(name: "bob", url: "", trace: bob)])
        let participant = try #require(report.participants.first)
        #expect(abs(participant.skipped - 15) <= 0.06)
        #expect(participant.rewound == 0)
    }

    @Test("a participant counts only from its first coordinated sample, and not once its samples stop")
    func countsOnlyWhileInTheGroup() throws {
        // Charlie's player waits for its first segments before its coordinator places it (not a
        // wait for the group), then plays, then waits a second for alice when its trace ends.
        let charlie = Fixture.trace(id: "p3", until: 6) { t in
            t < 0.5 ? Moment(primary: 0, status: "waiting (evaluatingBufferingRate)") : t < 5 ? .playing(48 + t) : .waiting(at: 53, for: ["p1"])
        }
        let report = DemoMeasurement.report(
            scenario: "live", description: nil, start: Fixture.start, duration: .seconds(20), participants: [.init(name: "charlie", url: "", trace: charlie)])
        let participant = try #require(report.participants.first)
        #expect(participant.skipped == 0)
        #expect(DemoSummary.seconds(participant.waited) >= 0.95 && DemoSummary.seconds(participant.waited) <= 1.35)
        #expect(participant.finalPosition == 53)
    }

    typealias Moment = DemoTraceFixture.Moment
}
