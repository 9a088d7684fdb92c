import Foundation
import GroupSimulation

/// A story's figures measured on the real processes beside those `interlude simulate` gives for
/// the same scenario, and whether they agree within the stated tolerances: every participant's
/// time waited, time in breaks, content skipped and gone back over within 1.5 s (the players
/// start, and a break begins, on real clocks and at segment boundaries, so a story's moments can
/// fall a few samples apart), its final position within 1.5 s on demand (live, the positions count
/// from each player's first playlist under `join` and from the stream's start in the simulator,
/// so they are shown and not compared), and the group's steady skew within 20 ms at the median,
/// the 95th and the 99th percentile (the largest is shown: one late sample on a busy machine
/// makes it, in either direction).
package struct DemoSummary: Sendable {
    /// The scenario file the story came from.
    package var scenarioPath: String
    /// What the real processes did.
    package var demo: SimulationReport
    /// What the simulator does with the same scenario.
    package var simulated: SimulationReport
    /// Whether the story is live (positions are not compared then).
    package var isLive: Bool

    package init(scenarioPath: String, demo: SimulationReport, simulated: SimulationReport, isLive: Bool) {
        self.scenarioPath = scenarioPath
        self.demo = demo
        self.simulated = simulated
        self.isLive = isLive
    }

    /// How far apart a time figure may be, in seconds.
    package static let secondsTolerance = 1.5
    /// How far apart a skew percentile may be, in milliseconds.
    package static let skewTolerance = 20.0

    /// A figure that differs by more than its tolerance.
    package struct Difference: Sendable, Equatable, CustomStringConvertible {
        package var figure: String
        package var participant: String?
        package var demo: Double
        package var simulated: Double
        package var tolerance: Double
        package var unit: String

        package var description: String {
            let value = { (number: Double) in String(format: unit == "ms" ? "%.1f ms" : "%.1f s", number) }
            return "\(participant.map { "\($0): " } ?? "")\(figure) \(value(demo)) here, \(value(simulated)) simulated (tolerance \(value(tolerance)))"
        }
    }

    /// Every figure outside its tolerance.
    package var differences: [Difference] {
        var differences: [Difference] = []
        func compare(_ figure: String, _ participant: String?, _ demo: Double?, _ simulated: Double?, within tolerance: Double, unit: String) {
            guard let demo, let simulated, abs(demo - simulated) > tolerance else { return }
            differences.append(Difference(figure: figure, participant: participant, demo: demo, simulated: simulated, tolerance: tolerance, unit: unit))
        }
        for simulatedParticipant in simulated.participants {
            let name = simulatedParticipant.name
            guard let participant = demo.participants.first(where: { $0.name == name }) else {
                differences.append(Difference(figure: "took no part", participant: name, demo: 0, simulated: 0, tolerance: 0, unit: "s"))
                continue
            }
            let tolerance = Self.secondsTolerance
            compare("waited", name, Self.seconds(participant.waited), Self.seconds(simulatedParticipant.waited), within: tolerance, unit: "s")
            compare("in breaks", name, Self.seconds(participant.inBreaks), Self.seconds(simulatedParticipant.inBreaks), within: tolerance, unit: "s")
            compare("skipped", name, participant.skipped, simulatedParticipant.skipped, within: tolerance, unit: "s")
            compare("went back over", name, participant.rewound, simulatedParticipant.rewound, within: tolerance, unit: "s")
            if !isLive {
                compare("final position", name, participant.finalPosition ?? .nan, simulatedParticipant.finalPosition ?? .nan, within: tolerance, unit: "s")
            }
        }
        let (mine, theirs) = (demo.skew.steadyPercentiles, simulated.skew.steadyPercentiles)
        if mine.count == 0 {
            differences.append(Difference(figure: "steady skew samples", participant: nil, demo: 0, simulated: Double(theirs.count), tolerance: 0, unit: "ms"))
        } else {
            compare("steady skew p50", nil, mine.p50, theirs.p50, within: Self.skewTolerance, unit: "ms")
            compare("steady skew p95", nil, mine.p95, theirs.p95, within: Self.skewTolerance, unit: "ms")
            compare("steady skew p99", nil, mine.p99, theirs.p99, within: Self.skewTolerance, unit: "ms")
        }
        return differences
    }

    /// The summary for a terminal.
    package var text: String {
        let names = simulated.participants.map(\.name)
        let width = max(11, names.map(\.count).max() ?? 0)
        func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        func left(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        func seconds(_ value: Double?) -> String { value.map { String(format: "%.1f s", $0) } ?? "-" }
        var lines: [String] = []
        lines.append("\(demo.scenario): \(DemoDisplay.clock(demo.duration)) of real time, \(demo.participants.count) participants; beside it `interlude simulate \(scenarioPath)`")
        lines.append("")
        lines.append(pad("", width) + "  " + ["waited", "in breaks", "skipped", "position"].map { pad("  " + $0, 20) }.joined())
        lines.append(pad("participant", width) + "  " + String(repeating: left("demo", 10) + left("simulate", 10), count: 4))
        for name in names {
            let mine = demo.participants.first { $0.name == name }
            let theirs = simulated.participants.first { $0.name == name }
            var row = pad(name, width) + "  "
            row += left(seconds(mine.map { Self.seconds($0.waited) }), 10) + left(seconds(theirs.map { Self.seconds($0.waited) }), 10)
            row += left(seconds(mine.map { Self.seconds($0.inBreaks) }), 10) + left(seconds(theirs.map { Self.seconds($0.inBreaks) }), 10)
            row += left(seconds(mine?.skipped), 10) + left(seconds(theirs?.skipped), 10)
            row += left(seconds(mine?.finalPosition), 10) + left(seconds(theirs?.finalPosition), 10)
            lines.append(row)
        }
        if isLive {
            lines.append("  (live positions count from each player's first playlist here, from the stream's start in the simulator: not compared)")
        }
        lines.append("")
        for name in names {
            guard let participant = demo.participants.first(where: { $0.name == name }) else { continue }
            lines.append("  " + pad(name, width) + "  " + Self.story(of: participant))
        }
        let waitLines = names.compactMap { name -> String? in
            func list(_ report: SimulationReport) -> String {
                let waits = report.participants.first { $0.name == name }?.waits.filter { $0.length >= .seconds(1) } ?? []
                return waits.isEmpty ? "none" : waits.map { String(format: "%.1f s at ", Self.seconds($0.length)) + DemoDisplay.clock($0.start) }.joined(separator: ", ")
            }
            let (mine, theirs) = (list(demo), list(simulated))
            return mine == "none" && theirs == "none" ? nil : "  " + pad(name, width) + "  " + mine + "   (simulate: " + theirs + ")"
        }
        if !waitLines.isEmpty {
            lines.append("")
            lines.append("waits of a second or more:")
            lines.append(contentsOf: waitLines)
        }
        lines.append("")
        lines.append("skew (ms)                               p50      p95      p99      max  samples")
        func row(_ label: String, _ values: SkewStatistics.Percentiles) -> String {
            guard values.count > 0 else { return pad(label, 36) + left("-", 9) + left("-", 9) + left("-", 9) + left("-", 9) + left("0", 9) }
            return pad(label, 36) + [values.p50, values.p95, values.p99, values.max].map { left(String(format: "%.1f", $0), 9) }.joined() + left("\(values.count)", 9)
        }
        lines.append(row("steady playback, demo", demo.skew.steadyPercentiles))
        lines.append(row("steady playback, simulate", simulated.skew.steadyPercentiles))
        lines.append(row("1 s after start/resume/seek, demo", demo.skew.transitionPercentiles))
        lines.append(row("1 s after start/resume/seek, simulate", simulated.skew.transitionPercentiles))
        lines.append("")
        let differences = differences
        let tolerances = String(format: "±%.1f s for times%@, ±%.0f ms for the skew's p50, p95 and p99", Self.secondsTolerance,
                                isLive ? "" : " and positions", Self.skewTolerance)
        if differences.isEmpty {
            lines.append("agrees with the simulation within \(tolerances)")
        } else {
            lines.append("DIFFERS from the simulation beyond \(tolerances):")
            lines.append(contentsOf: differences.map { "  \($0)" })
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What a story stopped early showed until then (nothing to compare: the simulation runs to
    /// the scenario's end).
    package static func partialText(_ report: SimulationReport) -> String {
        let width = max(7, report.participants.map(\.name.count).max() ?? 0)
        var lines = ["\(report.scenario), stopped \(DemoDisplay.clock(report.duration)) in (real processes):"]
        for participant in report.participants {
            lines.append("  " + participant.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + story(of: participant)
                + (participant.finalPosition.map { String(format: "; at %.1f s", $0) } ?? ""))
        }
        let steady = report.skew.steadyPercentiles
        lines.append(steady.count == 0 ? "  steady skew: no samples yet"
            : String(format: "  steady skew (ms): p50 %.1f, p95 %.1f, p99 %.1f, max %.1f (%d samples)", steady.p50, steady.p95, steady.p99, steady.max, steady.count))
        return lines.joined(separator: "\n") + "\n"
    }

    /// Who waited, who caught up and by how much, in a sentence.
    package static func story(of participant: SimulationReport.ParticipantReport) -> String {
        var parts: [String] = []
        let inBreaks = seconds(participant.inBreaks)
        let waited = seconds(participant.waited)
        parts.append(inBreaks < 0.5 ? "saw no ads" : String(format: "played %.1f s of ads", inBreaks))
        if participant.skipped >= 0.5 { parts.append(String(format: "caught up by skipping %.1f s of content", participant.skipped)) }
        if participant.rewound >= 0.5 { parts.append(String(format: "went back over %.1f s", participant.rewound)) }
        let longWaits = participant.waits.filter { $0.length >= .seconds(1) }
        if longWaits.isEmpty {
            parts.append(waited < 1 ? "never waited" : String(format: "waited %.1f s in all", waited))
        } else {
            parts.append(String(format: "waited %.1f s for the group", longWaits.map { seconds($0.length) }.reduce(0, +)))
        }
        return parts.joined(separator: ", ")
    }

    /// The summary as one JSON object: both reports (``SimulationReport/json``), the differences.
    package var json: String {
        func trimmed(_ text: String) -> String { text.hasSuffix("\n") ? String(text.dropLast()) : text }
        func string(_ text: String) -> String {
            String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
        }
        let differences = differences.map { string($0.description) }.joined(separator: ",")
        return "{\"scenarioFile\":\(string(scenarioPath)),\"live\":\(isLive),\"demo\":\(trimmed(demo.json)),\"simulate\":\(trimmed(simulated.json)),"
            + "\"agrees\":\(self.differences.isEmpty),\"differences\":[\(differences)]}"
    }

    package static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}

extension DemoSummary {
    /// One drawing of the stories: a row each, the real processes' positions on the left and the
    /// simulation's on the right, each drawn by ``SimulationReport/svg`` as `interlude simulate
    /// --svg` draws it.
    package static func svg(_ summaries: [DemoSummary]) -> String {
        let (width, height) = (960, 420)
        var text = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(2 * width)" height="\(max(1, summaries.count) * height)" viewBox="0 0 \(2 * width) \(max(1, summaries.count) * height)">

            """
        for (row, summary) in summaries.enumerated() {
            var demo = summary.demo
            demo.scenario += ", real processes"
            var simulated = summary.simulated
            simulated.scenario += ", interlude simulate"
            for (column, report) in [demo, simulated].enumerated() {
                text += "<g transform=\"translate(\(column * width),\(row * height))\">\n" + report.svg + "</g>\n"
            }
        }
        return text + "</svg>\n"
    }
}
