import Foundation
import GroupSimulation
import InterludeCommandLine
import Testing

/// A story's figures beside the simulator's, and what the demo says of them.
@Suite("DemoSummary")
struct DemoSummaryTests {
    typealias Fixture = DemoTraceFixture

    static func liveReport() -> SimulationReport {
        DemoMeasurement.report(scenario: "demo-live", description: nil, start: Fixture.start, duration: .seconds(40), participants: Fixture.liveStory())
    }

    /// A simulation's report with these figures (seconds), positions counted from the stream's start.
    static func simulated(bobSkipped: Double = 15, bobInBreaks: Double = 15, skewMilliseconds: Double = 3) -> SimulationReport {
        func participant(_ name: String, inBreaks: Double, skipped: Double) -> SimulationReport.ParticipantReport {
            .init(name: name, url: "http://origin.sim/live/channel/\(name)/main.m3u8", waited: .milliseconds(300), inBreaks: .milliseconds(Int64(inBreaks * 1000)),
                  skipped: skipped, rewound: 0, corrections: 0, stalls: 0, finalPosition: 166.7, series: [])
        }
        return SimulationReport(
            scenario: "demo-live", description: nil, duration: .seconds(40),
            participants: [participant("alice", inBreaks: 0, skipped: 0), participant("bob", inBreaks: bobInBreaks, skipped: bobSkipped)],
            skew: SkewStatistics(steady: Array(repeating: skewMilliseconds, count: 300)), notes: [])
    }

    @Test("figures within their tolerances agree; the summary says who played ads, who caught up and by how much")
    func agrees() {
        let summary = DemoSummary(scenarioPath: "Examples/Scenarios/demo-live.json", demo: Self.liveReport(), simulated: Self.simulated(), isLive: true)
        #expect(summary.differences.isEmpty)
        let text = summary.text
        #expect(text.contains("agrees with the simulation within ±1.5 s for times, ±20 ms for the skew's p50, p95 and p99"))
        #expect(text.contains("  alice        saw no ads, never waited"))
        #expect(text.contains("  bob          played 15.0 s of ads, caught up by skipping 15.0 s of content, never waited"))
        #expect(text.contains("steady playback, demo                     4.0      4.0      4.0      4.0"))
        #expect(text.contains("steady playback, simulate                 3.0      3.0      3.0      3.0      300"))
    }

    @Test("a figure beyond its tolerance is named, with both values; live positions are never compared, on-demand ones are")
    func differs() {
        let live = DemoSummary(scenarioPath: "demo-live.json", demo: Self.liveReport(), simulated: Self.simulated(bobSkipped: 0, skewMilliseconds: 30), isLive: true)
        #expect(live.differences.map(\.description) == [
            "bob: skipped 15.0 s here, 0.0 s simulated (tolerance 1.5 s)",
            "steady skew p50 4.0 ms here, 30.0 ms simulated (tolerance 20.0 ms)",
            "steady skew p95 4.0 ms here, 30.0 ms simulated (tolerance 20.0 ms)",
            "steady skew p99 4.0 ms here, 30.0 ms simulated (tolerance 20.0 ms)",
        ])
        #expect(live.text.contains("DIFFERS from the simulation"))
        let onDemand = DemoSummary(scenarioPath: "demo-vod.json", demo: Self.liveReport(), simulated: Self.simulated(), isLive: false)
        #expect(onDemand.differences.map(\.figure) == ["final position", "final position"])
        #expect(onDemand.json.contains("\"agrees\":false"))
    }

    @Test("the drawing holds each story twice, the real processes' and the simulation's, each as interlude simulate --svg draws it")
    func drawing() {
        let summary = DemoSummary(scenarioPath: "demo-live.json", demo: Self.liveReport(), simulated: Self.simulated(), isLive: true)
        let svg = DemoSummary.svg([summary, summary])
        #expect(svg.components(separatedBy: "<svg ").count - 1 == 5)
        var demo = summary.demo
        demo.scenario += ", real processes"
        #expect(svg.contains(demo.svg))
        #expect(svg.contains("demo-live, interlude simulate: coordinated position against time"))
        #expect(svg.contains("<g transform=\"translate(960,420)\">"))
    }

    @Test("a story stopped early tells what each participant did until then, without a comparison")
    func stoppedEarly() {
        let report = DemoMeasurement.report(scenario: "demo-live", description: nil, start: Fixture.start, duration: .seconds(20), participants: Fixture.liveStory())
        #expect(DemoSummary.partialText(report) == """
            demo-live, stopped 0:20 in (real processes):
              alice    saw no ads, never waited; at 69.9 s
              bob      played 10.0 s of ads, never waited; at 59.9 s
              steady skew (ms): p50 4.0, p95 4.0, p99 4.0, max 4.0 (64 samples)

            """)
    }
}
